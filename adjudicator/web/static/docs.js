// The API's endpoints from /openapi.json, drawn as text: no CDN, no swagger bundle.
const box = document.getElementById("endpoints");

// A paragraph of the description: Markdown's `code` spans as <code>, the rest as text.
function withCode(line) {
  const p = document.createElement("p");
  line.split("`").forEach((piece, i) => {
    if (i % 2) {
      const code = document.createElement("code");
      code.textContent = piece;
      p.append(code);
    } else p.append(piece);
  });
  return p;
}
const spec = await (await fetch("/openapi.json")).json();
for (const [path, methods] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    const part = document.createElement("section");
    const title = document.createElement("h2");
    title.textContent = `${method.toUpperCase()} ${path}`;
    part.append(title);
    for (const line of (op.description || op.summary || "").split("\n\n")) part.append(withCode(line));
    const params = (op.parameters || []).map((p) => `${p.name} (${p.in}${p.required ? ", required" : ""})${p.description ? ": " + p.description : ""}`);
    if (params.length) {
      const list = document.createElement("ul");
      for (const text of params) {
        const item = document.createElement("li");
        item.textContent = text;
        list.append(item);
      }
      part.append(list);
    }
    if (op.requestBody) {
      const p = document.createElement("p");
      p.textContent = `Body: ${Object.keys(op.requestBody.content).join(" or ")}`;
      part.append(p);
    }
    box.append(part);
  }
}
document.body.dataset.ready = "true";
