// toolSet's target is one of the five export formats.
import { initialize } from "toolgate";
import { toolSet } from "toolgate/ai-sdk";
const tg = await initialize();
toolSet(tg.branch(), { target: "cohere" });
