import { initialize } from "toolgate";
import { z } from "zod";
const tg = await initialize();
// the handler's arguments come from the zod schema, which has no "town" (with untyped arguments this compiles)
tg.tool({ name: "w", parameters: z.object({ city: z.string() }), handler: ({ town }) => town });
