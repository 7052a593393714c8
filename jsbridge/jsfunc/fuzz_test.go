package jsfunc

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// FuzzParse checks, on any source, that Parse never panics, gives the same
// answer twice, fails only with invalid-tool, and on success names every
// parameter with a JS identifier (or "" for the one destructured parameter,
// whose fields all have names) and holds only valid JSON in Default. The
// seed corpus is testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("function add(a, b = 2) { /** Adds. */ return a + b }")
	f.Fuzz(func(t *testing.T, src string) {
		got, err := Parse("f", src)
		again, errAgain := Parse("f", src)
		require.Equal(t, got, again, "got %+v then %+v", got, again)
		require.Equal(t, err, errAgain, "got %v then %v", err, errAgain)
		if err != nil {
			var e *core.Error
			require.True(t, errors.As(err, &e), "got %T, want *core.Error", err)
			require.Equal(t, core.CodeInvalidTool, e.Code, "got code %s, want invalid-tool", e.Code)
			require.Equal(t, core.Signature{}, got)
			return
		}
		require.Equal(t, "f", got.Name)
		require.NotNil(t, got.Params, "got nil Params, want a list")
		destructured := 0
		for i, p := range got.Params {
			if p.Kind == core.ParamDestructured {
				destructured++
				require.Empty(t, p.Name, "parameter %d: got name %q, want \"\" for a destructured parameter", i, p.Name)
				checkFuzzFields(t, p.Fields)
			} else {
				require.True(t, isFuzzIdentifier(p.Name), "parameter %d: got name %q, want a JS identifier", i, p.Name)
				require.Empty(t, p.Fields)
			}
			require.Contains(t, []core.ParamKind{core.ParamPlain, core.ParamRest, core.ParamDestructured}, p.Kind)
			checkFuzzDefault(t, p)
		}
		require.LessOrEqual(t, destructured, 1, "got %d destructured parameters, want at most 1", destructured)
	})
}

func checkFuzzFields(t *testing.T, fields []core.Param) {
	for _, f := range fields {
		require.NotEmpty(t, f.Name, "got a field with no name")
		require.Contains(t, []core.ParamKind{core.ParamPlain, core.ParamKeywords, core.ParamDestructured}, f.Kind)
		if f.Kind == core.ParamKeywords {
			require.True(t, isFuzzIdentifier(f.Name), "got rest field %q, want a JS identifier", f.Name)
		}
		checkFuzzDefault(t, f)
		checkFuzzFields(t, f.Fields)
	}
}

func checkFuzzDefault(t *testing.T, p core.Param) {
	if p.Default == nil {
		return
	}
	require.True(t, p.HasDefault, "%q: got a Default without HasDefault", p.Name)
	require.True(t, json.Valid(p.Default), "%q: got Default %q, want valid JSON", p.Name, p.Default)
	require.True(t, utf8.Valid(p.Default), "%q: got Default %q, want valid UTF-8", p.Name, p.Default)
}

// isFuzzIdentifier reports whether s is a JS IdentifierName, checked
// independently of the lexer: ASCII by the letter of the spec, other runes
// by their Unicode category.
func isFuzzIdentifier(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for i, r := range s {
		switch {
		case r == '$' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9':
			if i == 0 {
				return false
			}
		case r < utf8.RuneSelf:
			return false
		case unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r):
		case i > 0 && (unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) ||
			r == '\u200c' || r == '\u200d'):
		default:
			return false
		}
	}
	return true
}
