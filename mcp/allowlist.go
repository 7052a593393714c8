package mcp

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The urlAllowlist of a Security: parsing its entries and matching a URL's
// host and port against them.

// allowEntry is one parsed urlAllowlist entry.
type allowEntry struct {
	host string     // lower-cased hostname; "" for an IP entry
	addr netip.Addr // valid for an IP entry
	port string     // "" means the default port (443)
}

// String is the canonical text of the entry.
func (e allowEntry) String() string {
	h := e.host
	if e.addr.IsValid() {
		h = e.addr.String()
		if e.addr.Is6() && e.port != "" {
			h = "[" + h + "]"
		}
	}
	if e.port != "" {
		return h + ":" + e.port
	}
	return h
}

// parseAllowEntry parses "host", "host:port", "1.2.3.4[:port]", "::1" or
// "[::1][:port]". Case is ignored (ASCII only). It refuses anything CheckURL
// would refuse as a host or port, except the local names (localhost,
// *.localhost, *.local), which an entry is exactly the way to allow.
func parseAllowEntry(raw string) (allowEntry, error) {
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c < 0x21 || c > 0x7e || c == '\\' {
			return allowEntry{}, fmt.Errorf("byte %d is 0x%02x; only printable ASCII is allowed", i, c)
		}
	}
	s := jsontext.LowerASCII(raw)
	var host, port string
	hasPort := false
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return allowEntry{}, errors.New(`"[" without "]"`)
		}
		host = s[1:end]
		rest := s[end+1:]
		if rest != "" {
			if rest[0] != ':' {
				return allowEntry{}, errors.New(`only ":port" may follow "]"`)
			}
			port, hasPort = rest[1:], true
		}
		addr, err := netip.ParseAddr(host)
		if err != nil || !addr.Is6() || addr.Zone() != "" {
			return allowEntry{}, errors.New("brackets must hold an IPv6 address without a zone")
		}
	case strings.Count(s, ":") > 1:
		host = s // a bare IPv6 address; a port needs brackets
	default:
		var found bool
		host, port, found = strings.Cut(s, ":")
		hasPort = found
	}
	e := allowEntry{}
	if hasPort {
		p, why := normalisePort(port)
		if why != "" {
			return allowEntry{}, errors.New(why)
		}
		e.port = p
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if addr.Zone() != "" {
			return allowEntry{}, errors.New("an IPv6 zone is not allowed")
		}
		e.addr = addr
		return e, nil
	}
	if strings.Contains(host, ":") {
		return allowEntry{}, errors.New("not an IPv6 address")
	}
	if rule, detail := checkHostname(host); rule != "" {
		return allowEntry{}, errors.New(detail)
	}
	e.host = host
	return e, nil
}

// parseAllowlist parses every usable entry of list; unusable ones (possible
// only in a Security built in Go) are skipped, so they never match. A nil
// list gives nil: no allowlist.
func parseAllowlist(list []string) []allowEntry {
	if list == nil {
		return nil
	}
	out := make([]allowEntry, 0, len(list))
	for _, raw := range list {
		if e, err := parseAllowEntry(raw); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// checkURLAllowlist refuses the first entry that could never match a URL.
func checkURLAllowlist(list []string) error {
	for i, e := range list {
		if _, err := parseAllowEntry(e); err != nil {
			return securityError("security.urlAllowlist[%d]: %s is not a host, host:port or IP literal (%v)",
				i, strconv.QuoteToASCII(e), err)
		}
	}
	return nil
}

// canonicalEntry is the normalised text of an allowlist entry, or the entry
// itself (lower-cased) when it is unusable.
func canonicalEntry(e string) string {
	p, err := parseAllowEntry(e)
	if err != nil {
		return jsontext.LowerASCII(e)
	}
	return p.String()
}

// matchAllowlist reports whether want (host or address, and port) equals an
// entry, and whether its host or address is listed with some port at all.
func matchAllowlist(entries []allowEntry, want allowEntry) (matched, hostListed bool) {
	for _, e := range entries {
		sameHost := e.host == want.host && e.addr == want.addr
		if !sameHost {
			continue
		}
		hostListed = true
		if e.port == want.port {
			return true, true
		}
	}
	return false, hostListed
}

// portName names a normalised port for messages.
func portName(port string) string {
	if port == "" {
		return "the default port (443)"
	}
	return "port " + port
}
