// Draws the table on a canvas: the scene's walls, doors, floors and lights
// (as the engine normalized them, `SceneSight.scene()`), darkness, the
// tokens, and the sight lines from the selected token, coloured by the
// engine's answers. Nothing here decides anything: it paints answers.

/** Colours, one place. */
export const COLOURS = {
  background: "#1d1f24",
  sceneLit: "#3a3f47",
  sceneDark: "#15171c",
  wall: "#e8e4d8",
  wallOtherLevel: "rgba(232, 228, 216, 0.12)",
  wallNoSight: "rgba(150, 170, 200, 0.35)",
  doorClosed: "#f0a040",
  doorOpen: "#60d060",
  doorLocked: "#e05050",
  floor: "rgba(120, 140, 255, 0.35)",
  lit: "#4a4434",
  lightRing: "rgba(255, 214, 120, 0.35)",
  lightOff: "rgba(255, 214, 120, 0.55)",
  darknessSource: "rgba(40, 0, 60, 0.5)",
  clear: "#3ddc84",
  concealed: "#ffb020",
  blocked: "rgba(240, 80, 80, 0.45)",
  selected: "#ffffff",
  sides: ["#4aa3ff", "#ff6b6b", "#c792ea", "#ffd166", "#06d6a0", "#f78c6b"],
  sceneToken: "rgba(200, 200, 200, 0.5)",
};

/** Where the canvas looks: `scale` screen pixels per scene pixel, `x`, `y` the scene point at the top-left. */
export class Viewport {
  constructor() {
    this.scale = 0.2;
    this.x = 0;
    this.y = 0;
  }

  /** Fits a `width` x `height` scene into a `cw` x `ch` canvas. */
  fit(width, height, cw, ch) {
    this.scale = Math.min(cw / width, ch / height) * 0.95;
    this.x = (width - cw / this.scale) / 2;
    this.y = (height - ch / this.scale) / 2;
  }

  toScene(sx, sy) {
    return { x: this.x + sx / this.scale, y: this.y + sy / this.scale };
  }

  /** Zooms by `factor` keeping the scene point under (sx, sy) in place. */
  zoom(factor, sx, sy) {
    const at = this.toScene(sx, sy);
    this.scale = Math.min(4, Math.max(0.02, this.scale * factor));
    this.x = at.x - sx / this.scale;
    this.y = at.y - sy / this.scale;
  }
}

/** The side's colour: the same side, the same colour. */
export function sideColour(side, sides) {
  const index = sides.indexOf(side);
  return COLOURS.sides[(index < 0 ? 0 : index) % COLOURS.sides.length];
}

/** A token's centre and radius in scene pixels. */
export function tokenCircle(token, grid) {
  const w = (token.width ?? 1) * grid.size;
  const h = (token.height ?? 1) * grid.size;
  return { x: token.x + w / 2, y: token.y + h / 2, r: Math.min(w, h) * 0.42 };
}

/** Whether a wall is seen at elevation `z` (its Wall Height range holds it). */
function atLevel(wall, z) {
  const bottom = wall.height?.bottom ?? -Infinity;
  const top = wall.height?.top ?? Infinity;
  return bottom <= z && z <= top;
}

/** The middle of a door, where its control sits. */
export function doorControl(wall) {
  return { x: (wall.c[0] + wall.c[2]) / 2, y: (wall.c[1] + wall.c[3]) / 2 };
}

/**
 * Paints one frame.
 * @param {CanvasRenderingContext2D} ctx
 * @param {import("./table.js").Table} table
 * @param {Viewport} viewport
 * @param {{ selected: string | null, level: number, sides: string[], labels: (id: string) => string }} ui
 */
export function draw(ctx, table, viewport, ui) {
  const { canvas } = ctx;
  const scene = table.normalized;
  const grid = scene.grid;
  const toPx = grid.size / grid.distance;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(viewport.scale, 0, 0, viewport.scale, -viewport.x * viewport.scale, -viewport.y * viewport.scale);
  const px = 1 / viewport.scale;
  const width = scene.width ?? 0;
  const height = scene.height ?? 0;
  // Without global illumination the scene is dark but where lights reach.
  ctx.fillStyle = scene.globalLight ? COLOURS.sceneLit : COLOURS.sceneDark;
  ctx.fillRect(0, 0, width, height);

  // Grid, faint.
  if (grid.size * viewport.scale >= 8) {
    ctx.strokeStyle = "rgba(255,255,255,0.05)";
    ctx.lineWidth = px;
    ctx.beginPath();
    for (let x = 0; x <= width; x += grid.size) ctx.moveTo(x, 0), ctx.lineTo(x, height);
    for (let y = 0; y <= height; y += grid.size) ctx.moveTo(0, y), ctx.lineTo(width, y);
    ctx.stroke();
  }

  // Light: the squares the engine says are lit (B5), over the dark floor;
  // each light's reach as a faint ring, and darkness sources in purple.
  const squares = table.litSquares(ui.level);
  if (squares !== "all-lit" && squares !== "all-dark") {
    ctx.fillStyle = COLOURS.lit;
    const { size, cols, rows, lit } = squares;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) if (lit[r * cols + c]) ctx.fillRect(c * size, r * size, size, size);
    }
  } else if (squares === "all-lit" && !scene.globalLight) {
    ctx.fillStyle = COLOURS.sceneLit;
    ctx.fillRect(0, 0, width, height);
  }
  for (const light of scene.lights) {
    const r = Math.max(light.dim, light.bright) * toPx;
    if (light.darkness) {
      ctx.fillStyle = COLOURS.darknessSource;
      ctx.beginPath();
      ctx.arc(light.x, light.y, r, 0, Math.PI * 2);
      ctx.fill();
      continue;
    }
    if (!light.hidden && !scene.globalLight) {
      ctx.strokeStyle = COLOURS.lightRing;
      ctx.lineWidth = 2 * px;
      ctx.setLineDash([8 * px, 8 * px]);
      ctx.beginPath();
      ctx.arc(light.x, light.y, r, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }

  // Levels floors, outlined.
  ctx.lineWidth = px;
  ctx.setLineDash([6 * px, 6 * px]);
  ctx.strokeStyle = COLOURS.floor;
  for (const floor of scene.floors ?? []) {
    if (floor.elevation > ui.level + 0.001 && floor.elevation < ui.level + 10) ctx.strokeRect(floor.x, floor.y, floor.width, floor.height);
  }
  ctx.setLineDash([]);

  // Walls: those at the viewed level bright, the others faint.
  const wallWidth = Math.max(2 * px, 4);
  for (const wall of scene.walls) {
    const [x0, y0, x1, y1] = wall.c;
    const here = atLevel(wall, ui.level);
    if (wall.door !== "none") {
      ctx.strokeStyle = !here ? COLOURS.wallOtherLevel : wall.doorState === "open" ? COLOURS.doorOpen : wall.doorState === "locked" ? COLOURS.doorLocked : COLOURS.doorClosed;
      ctx.lineWidth = wallWidth * 1.5;
    } else if (!here) {
      ctx.strokeStyle = COLOURS.wallOtherLevel;
      ctx.lineWidth = wallWidth;
    } else if (wall.sight === "none") {
      ctx.strokeStyle = COLOURS.wallNoSight;
      ctx.lineWidth = wallWidth * 0.6;
    } else {
      ctx.strokeStyle = COLOURS.wall;
      ctx.lineWidth = wallWidth;
    }
    if (wall.sight === "limited" && here) ctx.setLineDash([10 * px, 6 * px]);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  // Door controls: a square at the middle of each door of the viewed level.
  const s = 7 * px;
  for (const wall of scene.walls) {
    if (wall.door === "none" || !atLevel(wall, ui.level)) continue;
    const { x, y } = doorControl(wall);
    ctx.fillStyle = wall.doorState === "open" ? COLOURS.doorOpen : wall.doorState === "locked" ? COLOURS.doorLocked : COLOURS.doorClosed;
    ctx.fillRect(x - s, y - s, 2 * s, 2 * s);
    ctx.strokeStyle = "#000";
    ctx.lineWidth = px;
    ctx.strokeRect(x - s, y - s, 2 * s, 2 * s);
  }
  // The scene's own tokens (not on the table), grey.
  for (const token of scene.tokens) {
    if (table.tokens.has(token.id)) continue;
    const c = tokenCircle(token, grid);
    ctx.fillStyle = COLOURS.sceneToken;
    ctx.beginPath();
    ctx.arc(c.x, c.y, c.r, 0, Math.PI * 2);
    ctx.fill();
  }

  // Sight lines of the selected token, coloured by clear view: a hider's
  // from each observer to it (what O2 and O4 read), any other token's from
  // it to each other token.
  const selected = ui.selected && table.tokens.get(ui.selected);
  const selectedHides = Boolean(selected && table.hiders.has(selected.id));
  if (selected) {
    const from = tokenCircle(selected, grid);
    for (const [id, token] of table.tokens) {
      if (id === selected.id) continue;
      const v = selectedHides ? table.view(id, selected.id) : table.view(selected.id, id);
      if (!v) continue;
      const to = tokenCircle(token, grid);
      ctx.lineWidth = v.clearView ? 3 * px : 2 * px;
      ctx.strokeStyle = v.clearView ? COLOURS.clear : v.sightLine ? COLOURS.concealed : COLOURS.blocked;
      ctx.setLineDash(v.clearView ? [] : v.sightLine ? [10 * px, 5 * px] : [2 * px, 6 * px]);
      ctx.beginPath();
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(to.x, to.y);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  // Tokens.
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.font = `${12 * px}px sans-serif`;
  /** The labels drawn so far, as rectangles. */
  const placed = [];
  for (const [id, token] of table.tokens) {
    const c = tokenCircle(token, grid);
    const colour = sideColour(token.side, ui.sides);
    const hiding = table.hiders.has(id);
    ctx.globalAlpha = hiding ? 0.55 : 1;
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(c.x, c.y, c.r, 0, Math.PI * 2);
    ctx.fill();
    ctx.globalAlpha = 1;
    if (hiding) {
      // Hiding: a dashed ring; hidden from someone (status `hidden`): white dashes.
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.strokeStyle = table.statuses.get(id)?.has("hidden") ? "#ffffff" : "#999999";
      ctx.lineWidth = 3 * px;
      ctx.beginPath();
      ctx.arc(c.x, c.y, c.r + 4 * px, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (id === ui.selected) {
      ctx.strokeStyle = COLOURS.selected;
      ctx.lineWidth = 3 * px;
      ctx.beginPath();
      ctx.arc(c.x, c.y, c.r + 9 * px, 0, Math.PI * 2);
      ctx.stroke();
    }
    // A dot by each pair with the selected token, green when the observer
    // perceives the hider, red when not: on each hider the selected observer
    // looks at, or on each observer of the selected hider.
    const observed = selectedHides ? selected.id : id;
    const observer = selectedHides ? id : selected?.id;
    if (selected && selected.id !== id && table.hiders.has(observed)) {
      const hidden = table.hiddenFrom(observer).includes(observed);
      ctx.fillStyle = hidden ? "#ff5050" : COLOURS.clear;
      ctx.beginPath();
      ctx.arc(c.x + c.r * 0.8, c.y - c.r * 0.8, 6 * px, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = "#ffffff";
    ctx.strokeStyle = "#000000";
    ctx.lineWidth = 3 * px;
    // The name under the token, moved down a line while it would cover another.
    const label = ui.labels(id);
    const w = ctx.measureText(label).width;
    const h = 14 * px;
    let y = c.y + c.r + 5 * px;
    while (placed.some((r) => c.x - w / 2 < r.x1 && r.x0 < c.x + w / 2 && y < r.y1 && r.y0 < y + h) && y < c.y + c.r + 5 * px + 4 * h) y += h;
    placed.push({ x0: c.x - w / 2, x1: c.x + w / 2, y0: y, y1: y + h });
    ctx.strokeText(label, c.x, y);
    ctx.fillText(label, c.x, y);
  }
  // Light controls, over the tokens: a sun (on) or a ring (off).
  for (const light of scene.lights) {
    if (light.darkness) continue;
    ctx.beginPath();
    ctx.arc(light.x, light.y, 8 * px, 0, Math.PI * 2);
    if (!light.hidden) {
      ctx.fillStyle = "#ffd36b";
      ctx.fill();
    }
    ctx.strokeStyle = COLOURS.lightOff;
    ctx.lineWidth = 2 * px;
    ctx.stroke();
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}
