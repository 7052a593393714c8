package core

// The limits of toolgate: on the arguments of one call, on a parameters
// schema, and on an error report. Each is named by the keyword of the issue
// that refuses past it (maxBytes, maxDepth, …).

// Limits on the arguments of one call.
const (
	// MaxArgumentDepth is the deepest nesting of arrays and objects accepted.
	MaxArgumentDepth = 64
	// MaxArgumentBytes is the largest arguments JSON accepted.
	MaxArgumentBytes = 16 << 20
	// MaxRequestBytes is the largest JSON text of one request (a call
	// envelope for ParseRequest and Match) or of one whole provider
	// response (ParseToolCalls), refused past it with invalid-request and
	// an issue with keyword maxBytes before any of it is read. Twice
	// MaxArgumentBytes and 64 KiB: room for one call of the largest
	// arguments sent as a JSON string with every quote in them escaped, and
	// the call's other members.
	MaxRequestBytes = 2*MaxArgumentBytes + 64<<10
)

// MaxToolNameBytes is the longest name a tool may have, in bytes of UTF-8
// (a tool with a longer one is refused with invalid-tool and an issue
// with keyword maxLength). Four times what MCP allows its tool names (128
// characters), so every real name fits; a name longer than a provider
// allows (OpenAI: 64) is rewritten when the tool is exported.
const MaxToolNameBytes = 512

// Limits on a tool's input examples (ToolOptions.InputExamples), refused
// past them with invalid-tool and an issue whose keyword names the limit
// (maxItems, maxBytes). Every example is also held to the limits on the
// arguments of one call, as it is checked as one. Anthropic advises a few
// examples per tool; each is sent with every request (and folded into the
// description for the other providers), so the bounds keep a tool's
// examples to a few thousand tokens.
const (
	// MaxInputExamples is the most input examples one tool may have.
	MaxInputExamples = 16
	// MaxInputExamplesBytes is the largest size of a tool's input
	// examples together, in bytes of compact JSON.
	MaxInputExamplesBytes = 16 << 10
)

// Limits on a parameters schema. Each is far beyond what real schemas reach
// (tools from MCP servers, Pydantic and zod have a few hundred nodes, keys of
// a few dozen bytes, enums of at most a few hundred values), and each stops a
// cost that would otherwise grow faster than the schema: past one, the schema
// is refused with invalid-schema and one issue whose keyword names the limit
// (maxBytes, maxDepth, maxObjects, maxValues, maxKeyLength, maxEnum,
// maxRefExpansion, maxRefDepth), before the work it guards is done.
const (
	// MaxSchemaDepth is the deepest nesting of arrays and objects accepted in
	// a schema document.
	MaxSchemaDepth = 64
	// MaxSchemaBytes is the largest schema JSON accepted.
	MaxSchemaBytes = 1 << 20
	// MaxSchemaObjects is the largest number of JSON objects (subschemas and
	// object-valued annotations) accepted in a schema document. The
	// validator's compile time grows with the square of the number of
	// subschemas (about 1 s natively for 4,000, ten times that under
	// WebAssembly), so the byte limit alone would allow minutes of work.
	MaxSchemaObjects = 1000
	// MaxSchemaValues is the largest number of JSON values of any kind
	// (objects, arrays, strings, numbers, booleans, nulls) accepted in a
	// schema document. Every value can be one metaschema error, which the
	// validator builds in full before toolgate sees it: a 1 MiB schema holds
	// half a million. Ten per object is more than real schemas use (a type, a
	// description, a few names in "required").
	MaxSchemaValues = 10 * MaxSchemaObjects
	// MaxSchemaKeyLength is the longest object key accepted anywhere in a
	// schema document, and the longest name in "required",
	// "dependentRequired" and "dependencies", in bytes. The validator keeps a
	// location for every subschema and every error, and each location
	// repeats the keys above it, so one long key multiplies everything below
	// it. Providers cap property names far lower (Anthropic at 64 bytes); 256
	// leaves room for patternProperties expressions.
	MaxSchemaKeyLength = 256
	// MaxSchemaEnumValues is the largest number of entries of all "enum"
	// arrays of a schema document together. The validator compares a value
	// with every entry and its error message lists them all. The largest real
	// enums (IANA time zones, about 600; ISO 3166 countries, about 250) fit
	// several times over.
	MaxSchemaEnumValues = 2000
	// MaxRefExpansion is the most subschema visits the validator may make
	// for one value of the arguments: every path through $ref (and
	// $dynamicRef, $recursiveRef), allOf, anyOf, oneOf, not, if/then/else and
	// dependentSchemas counts, not each subschema once, and at every depth
	// the arguments may reach (MaxArgumentDepth) through recursive
	// references. A schema without references cannot exceed it (it has at
	// most MaxSchemaObjects subschemas), and real ones meet a few dozen per
	// value; a 1 KB schema whose definitions each refer twice to the one
	// before meets 2^16 at 16 levels, 12 s of validation under WebAssembly.
	// A recursive schema stays allowed, unless one value can reach the same
	// recursion along two paths at every level (its work doubles per level).
	MaxRefExpansion = MaxSchemaObjects
	// MaxRefDepth is the deepest the validator's chain of subschemas may get
	// while it checks arguments nested MaxArgumentDepth levels: each $ref,
	// applicator branch and level of the arguments adds a link. The
	// validator rebuilds the chain's location for every error it makes, so
	// failing arguments cost the cube of this depth. Recursive Pydantic and
	// zod models add two to four links per level; 320 allows five.
	MaxRefDepth = 5 * MaxArgumentDepth
	// MaxNumberExponent bounds the decimal exponent of any number, in a schema
	// or in arguments: a literal whose exponent minus its count of fraction
	// digits is beyond ±MaxNumberExponent is refused. Such numbers are far
	// outside float64's range, and validating them exactly costs time that
	// grows with the exponent.
	MaxNumberExponent = 1000
)

// Limits on an error report (invalid-schema and invalid-arguments), so that
// a report's size does not grow with the schema or the arguments: it is at
// most MaxIssues issues, each message at most MaxIssueMessageBytes, and a
// summary message of at most MaxErrorMessageBytes.
const (
	// MaxIssues is the most issues one error lists. When there are more, the
	// first MaxIssues in order are kept and one more issue, with keyword
	// "maxIssues", says how many were left out.
	MaxIssues = 50
	// MaxIssueMessageBytes is the longest message of one issue; a longer one
	// is cut and ends with "…".
	MaxIssueMessageBytes = 512
	// MaxErrorMessageBytes is the longest message of an error (a summary of
	// its first issues); a longer one is cut and ends with "…".
	MaxErrorMessageBytes = 4096
)
