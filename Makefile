# toolgate: the single entry point. `make test` installs what it needs and runs every suite.
SHELL := /bin/bash
GO ?= go

.PHONY: all build test test-go demo bench fuzz clean cover

all: build

build:
	@echo "build: core only so far"
	$(GO) build ./...

test: test-go

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

cover:
	$(GO) test -count=1 -coverprofile=coverage.out ./core/...
	$(GO) tool cover -func=coverage.out | tail -1

fuzz:
	$(GO) test ./core/ -run '^$$' -fuzz FuzzExtractDocstring -fuzztime 30s
	$(GO) test ./core/ -run '^$$' -fuzz FuzzDecodeArguments -fuzztime 30s

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

demo:
	@echo "demo: the playground arrives with the WASM build"

clean:
	rm -rf .build coverage.out
