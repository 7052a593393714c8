// The hand-written declarations must name exactly what Go defines (the
// generated unions of contract.d.ts): an option or a security key added on
// one side only fails this file.
import type { ToolOptions, ToolOptionName, Security, SecurityKey, ToolgateError, PolicyRule, McpToolRule, UrlVerdict } from "toolgate";

/** true when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const toolOptionsMatchGo: Same<keyof ToolOptions, ToolOptionName> = true;
export const securityKeysMatchGo: Same<keyof Security, SecurityKey> = true;
export const errorRuleIsARule: Same<NonNullable<ToolgateError["rule"]>, PolicyRule | McpToolRule> = true;
export const verdictRuleIsPolicyRule: Same<NonNullable<UrlVerdict["rule"]>, PolicyRule> = true;
