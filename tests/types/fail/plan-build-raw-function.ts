import { initialize } from "toolgate/core";
const tg = await initialize();
// Plans hold typed tools only: a raw function does not type-check.
tg.buildPlans([function add(a: number, b: number) { return a + b; }]);
