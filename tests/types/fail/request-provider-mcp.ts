// A call's provider names the shape its arguments came in; "mcp" is an export target, not a call
// shape, and the runtime refuses it with invalid-request.
import { initialize } from "toolgate";
const tg = await initialize();
tg.branch().match({ function: "add", arguments: {}, provider: "mcp" });
