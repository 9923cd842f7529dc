/**
 * The rules of the shared views (the stage strip, the comparison table): part of the explorer's
 * stylesheet, and inlined into the MCP App views, which may load nothing from another origin. The
 * colours are the dashboard's variables (--success, --warn, --border), which each page defines.
 */
export const VIEW_STYLES = `
.stage-strip { display: flex; gap: 2px; list-style: none; margin: 0; padding: 0; }
.stage-cell { min-width: 2.6rem; padding: 0.1rem 0.25rem; border: 1px solid var(--border); border-radius: 4px; font-size: 0.85rem; white-space: nowrap; text-align: center; }
.stage-cell.state-ready { border-color: var(--success); color: var(--success); }
.stage-cell.state-limited { border-color: var(--warn); color: var(--warn); border-style: dashed; }
.grade { font-weight: 700; font-size: 1.05rem; }
.state-ready .state-badge, strong.state-ready { color: var(--success); }
.state-limited .state-badge, strong.state-limited { color: var(--warn); }
.table-scroll { overflow-x: auto; }
table.compare th[scope=row] { white-space: normal; min-width: 8rem; }
table.compare td { min-width: 10rem; }
tr.differs th, tr.differs td { background: rgba(178, 107, 0, 0.12); }
.differs-badge { display: block; font-size: 0.8rem; font-weight: 700; color: var(--warn); }
`;
