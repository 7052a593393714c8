package core

// The coercion plan as data, for the JavaScript evaluator's lax conversions
// (npm/lib/evaluator-lax.js). Placeholder until the port lands: nothing is
// exported, so a tool whose validation may convert is not answered in JS.

// laxProgram returns the data-only description of plan for the JavaScript
// evaluator, or nil when it is not exported.
func laxProgram(plan *coercePlan) any {
	_ = plan
	return nil
}
