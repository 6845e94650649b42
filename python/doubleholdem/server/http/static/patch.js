// Patches of the views the server pushes (docs/PROTOCOL.md, "Updates"), applied by the
// table page (an `update`) and the tournament page (a `tournament_update`) alike: the
// twin of doubleholdem.server.patches.apply_patch. Each operation of a patch, in order:
// [path, value] sets the value at path (object keys, array indexes; an empty path
// replaces the whole view), [path] removes that member of its object, and
// [path, start, removed, items] splices the array at path.
"use strict";
const Patch = Object.freeze({
  apply(view, patch) {
    const at = (path) => path.reduce((value, key) => value[key], view);
    for (const op of patch) {
      const path = op[0];
      if (op.length === 4) at(path).splice(op[1], op[2], ...op[3]);
      else if (path.length === 0) view = op[1];
      else if (op.length === 1) delete at(path.slice(0, -1))[path[path.length - 1]];
      else at(path.slice(0, -1))[path[path.length - 1]] = op[1];
    }
    return view;
  },
});
