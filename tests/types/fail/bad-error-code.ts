import type { ErrorCode } from "toolgate";
const c: ErrorCode = "not-a-code";
void c;
