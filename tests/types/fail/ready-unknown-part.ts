// tg.ready knows one part, the validator module.
import { initialize } from "toolgate/core";
const tg = await initialize();
await tg.ready("mcp");
