// toskit ClusterSimulator view: the outcomes and the cluster table, drawn
// from the Python side's `html` (escaped there). Two things happen here:
// * checkboxes in the node table set `selected` (node ids as JSON);
// * collapsible entries keyed with data-toskit-key remember whether they
//   are open (`open_keys`), so a redraw after a change keeps open what the
//   user opened (Python draws them open too).

function render({ model, el }) {
  const root = document.createElement("div");
  // The outcomes carry the class of ipywidgets' HTML output, so page checks
  // find them alike; the node table is the other part.
  root.className =
    model.get("part") === "nodes" ? "toskit-sim-nodes" : "widget-html-content toskit-sim-view";
  el.append(root);

  const draw = () => {
    root.innerHTML = model.get("html");
    const open = new Set(model.get("open_keys"));
    for (const details of root.querySelectorAll("details[data-toskit-key]")) {
      if (open.has(details.dataset.toskitKey)) details.open = true;
    }
  };

  // `toggle` does not bubble: listen in the capture phase.
  root.addEventListener(
    "toggle",
    (event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.dataset.toskitKey) return;
      const key = details.dataset.toskitKey;
      const keys = new Set(model.get("open_keys"));
      if (details.open === keys.has(key)) return;
      if (details.open) keys.add(key);
      else keys.delete(key);
      model.set("open_keys", [...keys]);
      model.save_changes();
    },
    true,
  );

  root.addEventListener("change", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.classList.contains("toskit-node-check")) return;
    let id;
    try {
      id = JSON.parse(box.dataset.nodeId);
    } catch {
      return;
    }
    let selected = model.get("selected").filter((x) => x !== id);
    if (box.checked) selected = [...selected, id];
    model.set("selected", selected);
    model.save_changes();
  });

  model.on("change:html", draw);
  draw();
}

export default { render };
