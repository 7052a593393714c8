import { initialize } from "toolgate";
const tg = await initialize();
// a provider with a misspelt key is refused
await tg.branch().registerMcpServer({ name: "d", url: "https://x.example/mcp" }, { auth: { redirectURL: "http://localhost/cb" } });
