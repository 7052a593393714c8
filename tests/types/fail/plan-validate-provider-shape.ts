import { loadPlans } from "toolgate/plan";
// Plans take {function, arguments} only: a provider's call shape is refused by the types too.
loadPlans("{}").validate({ type: "tool_use", name: "add", input: {} });
