import { initialize } from "toolgate";
const tg = await initialize();
// workload identity takes the assertion and a client id, nothing else (no secret: the JWT is the credential)
await tg.branch().registerMcpServer({ name: "d", url: "https://x.example/mcp" }, { auth: { workloadIdentity: { assertion: "a.b.c", clientSecret: "s" } } });
