// auth.dpop is "auto", true or false: another string is refused.
import type { McpAuthProvider } from "toolgate";

export const auth: McpAuthProvider = { dpop: "always" };
