// toskit TypeTree: the type inheritance tree of a template.
// Data comes from the Python side (`tree`, `selected`); clicking a type sets
// `selected`. User text is only ever assigned with textContent.

function makeNode(node, depth, buttons, model) {
  const li = document.createElement("li");
  li.className = (node.normative ? "toskit-normative" : "toskit-user") + (node.match ? " toskit-match" : "");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "toskit-tree-button toskit-node-name";
  button.textContent = node.name;
  button.title = `${node.kind} type ${node.name}`;
  button.addEventListener("click", (event) => {
    event.preventDefault();
    model.set("selected", node.name);
    model.save_changes();
  });
  buttons.set(node.name, [...(buttons.get(node.name) || []), button]);
  if (!node.children.length) {
    const leaf = document.createElement("div");
    leaf.className = "toskit-leaf";
    leaf.append(button);
    if (node.cycle) {
      const note = document.createElement("span");
      note.className = "toskit-node-note";
      note.textContent = "derivation cycle";
      leaf.append(note);
    }
    li.append(leaf);
    return li;
  }
  const details = document.createElement("details");
  details.open = node.open;
  const summary = document.createElement("summary");
  const count = document.createElement("span");
  count.className = "toskit-node-note";
  count.textContent = `${node.size - 1} derived`;
  summary.append(button, count);
  const ul = document.createElement("ul");
  for (const child of node.children) ul.append(makeNode(child, depth + 1, buttons, model));
  details.append(summary, ul);
  li.append(details);
  return li;
}

function render({ model, el }) {
  let buttons = new Map();
  const root = document.createElement("div");
  root.className = "toskit-wrap toskit-typetree";
  // Filtering is done in Python: typing sets `filter`, Python sends a new `tree`.
  const search = document.createElement("input");
  search.type = "search";
  search.className = "toskit-tree-filter";
  search.placeholder = "filter types";
  search.value = model.get("filter") || "";
  search.addEventListener("input", () => {
    model.set("filter", search.value);
    model.save_changes();
  });
  const body = document.createElement("div");
  root.append(search, body);
  el.append(root);

  const mark = () => {
    const selected = model.get("selected");
    for (const [name, list] of buttons) {
      for (const b of list) b.classList.toggle("toskit-selected", name === selected);
    }
  };

  const draw = () => {
    buttons = new Map();
    body.replaceChildren();
    if (!model.get("tree").length) {
      const empty = document.createElement("div");
      empty.className = "toskit-empty";
      empty.textContent = model.get("filter") ? "no type matches the filter" : "no types";
      body.append(empty);
    }
    for (const group of model.get("tree")) {
      const details = document.createElement("details");
      details.className = "toskit-section";
      details.open = group.open;
      const summary = document.createElement("summary");
      summary.textContent = group.label;
      const note = document.createElement("span");
      note.className = "toskit-node-note";
      note.textContent = group.note;
      summary.append(note);
      const ul = document.createElement("ul");
      ul.className = "toskit-tree";
      for (const node of group.roots) ul.append(makeNode(node, 0, buttons, model));
      details.append(summary, ul);
      body.append(details);
    }
    mark();
  };

  const syncFilter = () => {
    const value = model.get("filter") || "";
    if (search.value !== value) search.value = value;
  };
  model.on("change:tree", draw);
  model.on("change:selected", mark);
  model.on("change:filter", syncFilter);
  draw();
  return () => {
    model.off("change:tree", draw);
    model.off("change:selected", mark);
    model.off("change:filter", syncFilter);
  };
}

export default { render };
