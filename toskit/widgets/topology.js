// toskit TopologyView: the drawn topology, clickable.
// The SVG comes from Python (`svg`), built there with every user string
// escaped; it is the only markup assigned here. Clicking a node box sets
// `selected`; hovering an arrow shows its text (requirement, relationship,
// why that target) in the panel under the drawing, with textContent.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "toskit-wrap toskit-topology-widget";
  const drawing = document.createElement("div");
  drawing.className = "toskit-topology-drawing";
  const hover = document.createElement("div");
  hover.className = "toskit-topology-hover";
  const idle = "Click a node to see its properties; hover an arrow to see why it points there.";
  hover.textContent = idle;

  const mark = () => {
    const selected = model.get("selected");
    for (const g of drawing.querySelectorAll("g.toskit-t-node")) {
      g.classList.toggle("toskit-t-selected", g.dataset.node === selected);
    }
  };
  const choose = (g) => {
    model.set("selected", g.dataset.node);
    model.save_changes();
  };
  const draw = () => {
    drawing.innerHTML = model.get("svg");
    for (const g of drawing.querySelectorAll("g.toskit-t-node")) {
      g.addEventListener("click", () => choose(g));
      g.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choose(g);
        }
      });
    }
    for (const g of drawing.querySelectorAll("g.toskit-t-edge, g.toskit-t-problem")) {
      const title = g.querySelector("title");
      g.addEventListener("mouseenter", () => {
        hover.textContent = title ? title.textContent : "";
        hover.classList.add("toskit-topology-hover-active");
      });
      g.addEventListener("mouseleave", () => {
        hover.textContent = idle;
        hover.classList.remove("toskit-topology-hover-active");
      });
    }
    mark();
  };
  model.on("change:svg", draw);
  model.on("change:selected", mark);
  draw();
  root.append(drawing, hover);
  el.append(root);
}

export default { render };
