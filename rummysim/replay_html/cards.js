// Cards as inline SVG, shared by the replay page and rummysim serve's page (they put card_symbols.svg
// in the page once): cardSvg("H8") a face, backSvg(offset) a back, esc(text) for HTML.
const RED = { H: true, D: true };
const W = 46, H = 64;

function esc(s) {
  return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[c]);
}

// One card as inline SVG: "H8", "D10", "JK" or, on the table, "JK=H9" (a joker and what it stands for).
function cardSvg(name, moved) {
  const [card, stands] = name.split("=");
  const cls = "card" + (moved ? " moved" : "");
  const head = `<svg class="${cls}" data-card="${esc(card)}"${stands ? ` data-stands="${esc(stands)}"` : ""}` +
               ` width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(name)}">`;
  const face = `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5" fill="#fffefa" stroke="#9a9a9a"/>`;
  if (card === "JK") {
    const label = stands ? `<rect x="3" y="${H - 19}" width="${W - 6}" height="15" rx="3" fill="#6a1b9a"/>` +
      `<text x="${W / 2}" y="${H - 7.5}" font-size="10" font-weight="700" fill="#fff" text-anchor="middle">= ${esc(stands)}</text>` : "";
    return head + face +
      `<text x="5" y="14" font-size="11" font-weight="700" fill="#6a1b9a">JK</text>` +
      `<path transform="translate(${W / 2 - 11} ${stands ? 15 : 22}) scale(0.22)" fill="#8e24aa" ` +
      `d="M50 0 62 36 100 38 70 60 80 98 50 76 20 98 30 60 0 38 38 36z"/>` + label + "</svg>";
  }
  const suit = card[0], rank = card.slice(1);
  const color = RED[suit] ? "#c62828" : "#1c1c1c";
  return head + face +
    `<text x="4" y="15" font-size="${rank.length > 1 ? 12 : 13.5}" font-weight="700" fill="${color}" letter-spacing="-0.5">${esc(rank)}</text>` +
    `<use href="#suit-${suit}" transform="translate(5 19) scale(0.1)" fill="${color}"/>` +
    `<use href="#suit-${suit}" transform="translate(${W / 2 - 11} ${H / 2 - 8}) scale(0.22)" fill="${color}"/>` +
    `<text x="${W - 4}" y="${H - 5}" font-size="${rank.length > 1 ? 12 : 13.5}" font-weight="700" fill="${color}" ` +
    `text-anchor="end" letter-spacing="-0.5">${esc(rank)}</text></svg>`;
}

function backSvg(offset) {
  return `<svg class="card back" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ` +
    `style="position:absolute; left:${offset}px; top:${offset}px">` +
    `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="5" fill="#fff" stroke="#9a9a9a"/>` +
    `<rect x="3.5" y="3.5" width="${W - 7}" height="${H - 7}" rx="3" fill="url(#back)"/></svg>`;
}
