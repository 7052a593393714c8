import { initialize } from "toolgate/core";
const tg = await initialize();
tg.mcp.checkUrl("https://x.example/", { allowUrls: true });
