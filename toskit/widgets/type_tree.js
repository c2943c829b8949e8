// toskit TypeTree: the type inheritance tree of a template, as an ARIA tree.
// Data comes from the Python side (`tree`, `selected`, `filter`,
// `show_normative`); clicking a type (or Enter on it) sets `selected`.
// User text is only ever assigned with textContent.
//
// Keyboard (WAI-ARIA tree pattern): ↓/↑ next/previous visible item, → opens
// a branch or moves to its first child, ← closes it or moves to the parent,
// Home/End first/last item, Enter/Space selects a type (or opens a group).
// Every key event is kept inside the widget (stopPropagation, and Lumino's
// data-lm-suppress-shortcuts), so JupyterLab never sees them: ↓ must not move
// the notebook's active cell, Enter must not open a cell for editing.

// Where the keyboard focus was in a view of a model's tree, kept across
// views: when the notebook's stored snapshot is refreshed
// (toskit/widgets/snapshot.py), JupyterLab renders the output again and the
// old view's DOM is dropped with the focus in it; the new view puts the
// focus back on the same item. Keyed by the tree data, which every view of
// one model shares.
const FOCUS = (globalThis.__toskitTreeFocus = globalThis.__toskitTreeFocus || new WeakMap());

const el = (tag, cls) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  return node;
};

function setExpanded(li, open) {
  if (!li.hasAttribute("aria-expanded")) return;
  li.setAttribute("aria-expanded", open ? "true" : "false");
  const group = li.querySelector(":scope > ul");
  if (group) group.hidden = !open;
  const toggle = li.querySelector(":scope > .toskit-tree-row > .toskit-tree-toggle");
  if (toggle) toggle.textContent = open ? "▾" : "▸";
}

function makeItem(node, level, items, model) {
  const li = el("li", node.normative ? "toskit-normative" : "toskit-user");
  if (node.match) li.classList.add("toskit-match");
  li.setAttribute("role", "treeitem");
  li.setAttribute("aria-level", String(level));
  li.setAttribute("aria-selected", "false");
  li.tabIndex = -1;
  li.dataset.name = node.name;
  const row = el("div", "toskit-tree-row");
  const toggle = el("span", "toskit-tree-toggle");
  toggle.setAttribute("aria-hidden", "true");
  const name = el("span", "toskit-tree-button toskit-node-name");
  name.textContent = node.name;
  name.title = `${node.kind} type ${node.name}`;
  row.append(toggle, name);
  if (node.cycle) {
    const note = el("span", "toskit-node-note");
    note.textContent = "derivation cycle";
    row.append(note);
  }
  li.append(row);
  items.push(li);
  if (node.children.length) {
    const count = el("span", "toskit-node-note");
    count.textContent = `${node.size - 1} derived`;
    row.append(count);
    const ul = el("ul");
    ul.setAttribute("role", "group");
    for (const child of node.children) ul.append(makeItem(child, level + 1, items, model));
    li.append(ul);
    li.setAttribute("aria-expanded", "false");
    setExpanded(li, Boolean(node.open));
    toggle.addEventListener("click", (event) => {
      event.stopPropagation();
      setExpanded(li, li.getAttribute("aria-expanded") !== "true");
    });
  }
  row.addEventListener("click", () => {
    model.set("selected", node.name);
    model.save_changes();
    li.focus();
  });
  return li;
}

function makeGroup(group, items, model) {
  const li = el("li", "toskit-tree-group");
  li.setAttribute("role", "treeitem");
  li.setAttribute("aria-level", "1");
  li.tabIndex = -1;
  const row = el("div", "toskit-tree-row toskit-tree-group-row");
  const toggle = el("span", "toskit-tree-toggle");
  toggle.setAttribute("aria-hidden", "true");
  const label = el("span", "toskit-tree-group-label");
  label.textContent = group.label;
  const note = el("span", "toskit-node-note");
  note.textContent = group.note;
  row.append(toggle, label, note);
  li.append(row);
  items.push(li);
  const ul = el("ul");
  ul.setAttribute("role", "group");
  for (const node of group.roots) ul.append(makeItem(node, 2, items, model));
  li.append(ul);
  li.setAttribute("aria-expanded", "false");
  setExpanded(li, Boolean(group.open) && group.roots.length > 0);
  row.addEventListener("click", () => {
    setExpanded(li, li.getAttribute("aria-expanded") !== "true");
    li.focus();
  });
  return li;
}

// Items a reader can see now (every ancestor open), in document order.
function visible(items) {
  return items.filter((li) => {
    for (let p = li.parentElement; p && p.getAttribute("role") !== "tree"; p = p.parentElement) {
      if (p.tagName === "UL" && p.hidden) return false;
    }
    return true;
  });
}

function render({ model, el: host }) {
  let items = [];
  const root = el("div", "toskit-wrap toskit-typetree");
  // Lumino (JupyterLab's shortcuts) skips key bindings inside this attribute.
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("data-p-suppress-shortcuts", "true");

  const bar = el("div", "toskit-tree-toolbar");
  const search = el("input", "toskit-tree-filter");
  search.type = "search";
  search.placeholder = "filter: type or property name";
  search.setAttribute("aria-label", "filter types by type or property name");
  search.value = model.get("filter") || "";
  search.addEventListener("input", () => {
    model.set("filter", search.value);
    model.save_changes();
  });
  const expandAll = el("button", "toskit-tree-action");
  expandAll.type = "button";
  expandAll.textContent = "expand all";
  const collapseAll = el("button", "toskit-tree-action");
  collapseAll.type = "button";
  collapseAll.textContent = "collapse all";
  const normative = el("label", "toskit-tree-option");
  const box = el("input", "toskit-tree-normative");
  box.type = "checkbox";
  box.checked = Boolean(model.get("show_normative"));
  normative.append(box, document.createTextNode(" normative types"));
  box.addEventListener("change", () => {
    model.set("show_normative", box.checked);
    model.save_changes();
  });
  bar.append(search, expandAll, collapseAll, normative);

  const scroll = el("div", "toskit-tree-scroll");
  const tree = el("ul", "toskit-tree");
  tree.setAttribute("role", "tree");
  tree.setAttribute("aria-label", "type inheritance tree");
  scroll.append(tree);
  root.append(bar, scroll);
  host.append(root);

  const focusItem = (li) => {
    if (!li) return;
    for (const other of items) other.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
    li.scrollIntoView({ block: "nearest" });
  };

  const mark = () => {
    const selected = model.get("selected");
    let current = null;
    for (const li of items) {
      if (!li.dataset.name) continue;
      const on = li.dataset.name === selected;
      li.setAttribute("aria-selected", on ? "true" : "false");
      li.classList.toggle("toskit-selected", on);
      li.querySelector(":scope > .toskit-tree-row > .toskit-tree-button").classList.toggle("toskit-selected", on);
      if (on && !current) current = li;
    }
    // The selected item (else the first) is the one Tab reaches.
    const start = current || items[0];
    for (const li of items) li.tabIndex = li === start ? 0 : -1;
  };

  const draw = () => {
    items = [];
    tree.replaceChildren();
    const groups = model.get("tree");
    if (!groups.length) {
      const empty = el("li", "toskit-empty");
      empty.setAttribute("role", "none");
      empty.textContent = model.get("filter") ? "no type or property matches the filter" : "no types";
      tree.append(empty);
    }
    for (const group of groups) tree.append(makeGroup(group, items, model));
    mark();
  };

  expandAll.addEventListener("click", () => items.forEach((li) => setExpanded(li, true)));
  collapseAll.addEventListener("click", () => items.forEach((li) => setExpanded(li, false)));

  // Every key pressed in the widget stays in the widget.
  root.addEventListener("keydown", (event) => event.stopPropagation());
  root.addEventListener("keyup", (event) => event.stopPropagation());
  root.addEventListener("keypress", (event) => event.stopPropagation());

  tree.addEventListener("keydown", (event) => {
    const li = event.target.closest ? event.target.closest("li[role=treeitem]") : null;
    if (!li) return;
    const shown = visible(items);
    const at = shown.indexOf(li);
    const expanded = li.getAttribute("aria-expanded");
    let handled = true;
    switch (event.key) {
      case "ArrowDown":
        focusItem(shown[Math.min(at + 1, shown.length - 1)]);
        break;
      case "ArrowUp":
        focusItem(shown[Math.max(at - 1, 0)]);
        break;
      case "Home":
        focusItem(shown[0]);
        break;
      case "End":
        focusItem(shown[shown.length - 1]);
        break;
      case "ArrowRight":
        if (expanded === "false") setExpanded(li, true);
        else if (expanded === "true") focusItem(li.querySelector(":scope > ul > li[role=treeitem]"));
        break;
      case "ArrowLeft":
        if (expanded === "true") setExpanded(li, false);
        else focusItem(li.parentElement.closest("li[role=treeitem]"));
        break;
      case "Enter":
      case " ":
        if (li.dataset.name) {
          model.set("selected", li.dataset.name);
          model.save_changes();
        } else {
          setExpanded(li, expanded !== "true");
        }
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  });

  // Type names in the tables beside the tree (a TemplateExplorer's
  // PropertyExplorer marks them data-toskit-type) select that type here.
  const known = () => new Set(items.filter((li) => li.dataset.name).map((li) => li.dataset.name));
  const followLink = (event) => {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    const link = event.target.closest ? event.target.closest("[data-toskit-type]") : null;
    if (!link) return;
    const name = link.dataset.toskitType;
    event.preventDefault();
    event.stopPropagation();
    if (!known().has(name)) return; // a type this tree does not hold (a one-kind tree)
    model.set("selected", name);
    model.save_changes();
  };
  let linkBox = null;
  const attach = () => {
    linkBox = host.closest(".widget-hbox, .jupyter-widgets.widget-container");
    if (!linkBox) return false;
    linkBox.addEventListener("click", followLink);
    linkBox.addEventListener("keydown", followLink);
    return true;
  };
  // The host is put in the page after render returns: look for the box then.
  if (!attach()) requestAnimationFrame(() => attach() || setTimeout(attach, 200));

  const syncFilter = () => {
    const value = model.get("filter") || "";
    if (search.value !== value) search.value = value;
  };
  const syncNormative = () => {
    box.checked = Boolean(model.get("show_normative"));
  };
  // Remember the focused item; forget it when the reader leaves the tree
  // (the tree is still on the page then), not when the view is dropped.
  const itemKey = (li) => li.dataset.name || `group:${li.querySelector(".toskit-tree-group-label").textContent}`;
  tree.addEventListener("focusin", (event) => {
    const li = event.target.closest ? event.target.closest("li[role=treeitem]") : null;
    const data = model.get("tree");
    if (li && data && typeof data === "object") FOCUS.set(data, itemKey(li));
  });
  tree.addEventListener("focusout", () => {
    const data = model.get("tree");
    setTimeout(() => {
      if (root.isConnected && !root.contains(document.activeElement) && data && typeof data === "object") {
        FOCUS.delete(data);
      }
    }, 0);
  });
  const restoreFocus = () => {
    const data = model.get("tree");
    const key = data && typeof data === "object" ? FOCUS.get(data) : undefined;
    if (!key || !root.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body && !root.contains(active)) return; // the reader is elsewhere
    const li = items.find((item) => itemKey(item) === key);
    if (li && !visible(items).includes(li)) return;
    if (li) focusItem(li);
  };
  // The host is put in the page after render returns.
  requestAnimationFrame(restoreFocus);

  model.on("change:tree", draw);
  model.on("change:selected", mark);
  model.on("change:filter", syncFilter);
  model.on("change:show_normative", syncNormative);
  draw();
  return () => {
    if (linkBox) {
      linkBox.removeEventListener("click", followLink);
      linkBox.removeEventListener("keydown", followLink);
    }
    model.off("change:tree", draw);
    model.off("change:selected", mark);
    model.off("change:filter", syncFilter);
    model.off("change:show_normative", syncNormative);
  };
}

export default { render };
