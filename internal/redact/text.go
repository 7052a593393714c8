package redact

import (
	"net/url"
	"slices"
	"strings"
)

// minSecretLen is the shortest value Text treats as a secret: shorter ones
// would shred ordinary words of a message and guard nothing.
const minSecretLen = 4

// minTokenLen is the shortest whitespace-separated part of a header value
// ("Bearer abc…" → "abc…") that Text also removes on its own.
const minTokenLen = 8

// Secrets are the configured values a message must not show.
type Secrets struct {
	// Headers are header values: each is removed whole, and each of its
	// whitespace-separated parts of at least 8 bytes on its own (so a bearer
	// token echoed without "Bearer " goes too).
	Headers []string
	// Values are removed whole (env values).
	Values []string
	// URL is a configured URL: its userinfo (raw and decoded), its query
	// (whole and each value) and its fragment are removed.
	URL string
}

// Text returns msg with every secret replaced by Mark, longest first so a
// secret containing another is replaced whole. Values shorter than 4 bytes
// are left alone.
func Text(msg string, s Secrets) string {
	if msg == "" {
		return msg
	}
	var secrets []string
	add := func(v string, min int) {
		if len(v) >= min {
			secrets = append(secrets, v)
		}
	}
	for _, v := range s.Headers {
		add(v, minSecretLen)
		for _, f := range strings.Fields(v) {
			add(f, minTokenLen)
		}
	}
	for _, v := range s.Values {
		add(v, minSecretLen)
	}
	for _, v := range urlSecrets(s.URL) {
		add(v, minSecretLen)
	}
	if len(secrets) == 0 {
		return msg
	}
	slices.SortFunc(secrets, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	secrets = slices.Compact(secrets)
	pairs := make([]string, 0, 2*len(secrets))
	for _, v := range secrets {
		pairs = append(pairs, v, Mark)
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// urlSecrets lists the secret-bearing parts of a configured URL: userinfo,
// query and fragment, raw and decoded.
func urlSecrets(raw string) []string {
	if raw == "" {
		return nil
	}
	var out []string
	if at := strings.LastIndexByte(raw, '@'); at >= 0 {
		start := 0
		if i := strings.Index(raw, "//"); i >= 0 && i < at {
			start = i + 2
		}
		out = append(out, raw[start:at])
	}
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		out = append(out, raw[i+1:])
	}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	out = append(out, u.RawQuery, u.Fragment)
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}
