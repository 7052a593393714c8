import { initialize } from "toolgate";
const tg = await initialize();
tg.mcp.checkUrl("https://x.example/", { allowUrls: "true" });
