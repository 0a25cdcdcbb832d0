() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) problems.push(`scrollWidth ${doc.scrollWidth}`);
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
  };
  const what = (e) => `${e.tagName} ${e.id || e.getAttribute("aria-label") || e.textContent.trim().slice(0, 30)}`;
  const controls = "button, select, input:not([type=radio]):not([type=checkbox]), textarea, summary, a.button";
  for (const e of document.querySelectorAll(controls)) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.height < 44 || r.width < 44) problems.push(`small target ${what(e)} ${r.width}x${r.height}`);
  }
  for (const e of document.querySelectorAll("input[type=radio]")) {
    const label = e.closest("label");
    if (visible(e) && (!label || label.getBoundingClientRect().height < 44)) problems.push(`small radio ${what(e)}`);
  }
  for (const e of document.querySelectorAll("button, select, input, textarea")) {
    const name = e.getAttribute("aria-label") || (e.labels && e.labels.length) || e.textContent.trim();
    if (!name) problems.push(`no accessible name ${what(e)}`);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim() || !visible(node.parentElement)) continue;
    const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
    if (size < 16) problems.push(`text ${size}px: ${node.textContent.trim().slice(0, 30)}`);
  }
  return problems;
}
