// The goals the speed issue sets, by row id (see a row's `id` in
// bench/report.json), as text shown beside the measurement: e.g.
//   "validate-object-ajv": "≤ 50×",
// A row without an entry here has no goal column value. Goals are shown,
// never asserted: make bench fails only when a figure could not be measured.
export const GOALS = {};
