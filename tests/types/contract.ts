// The hand-written declarations must name exactly what Go defines (the
// generated unions of contract.d.ts): an option, a security key or a provider
// target added on one side only fails this file.
import type { ToolOptions, ToolOptionName, Security, SecurityKey, ToolgateError, PolicyRule, McpToolRule, UrlVerdict, ProviderTarget, ProviderResult, ProviderResultMessage, ProviderTools } from "toolgate";

/** true when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const toolOptionsMatchGo: Same<keyof ToolOptions, ToolOptionName> = true;
export const securityKeysMatchGo: Same<keyof Security, SecurityKey> = true;
export const errorRuleIsARule: Same<NonNullable<ToolgateError["rule"]>, PolicyRule | McpToolRule> = true;
export const verdictRuleIsPolicyRule: Same<NonNullable<UrlVerdict["rule"]>, PolicyRule> = true;
export const resultTargetsMatchGo: Same<keyof ProviderResult, ProviderTarget> = true;
export const resultMessageTargetsMatchGo: Same<keyof ProviderResultMessage, ProviderTarget> = true;
export const toolTargetsMatchGo: Same<keyof ProviderTools, ProviderTarget> = true;
