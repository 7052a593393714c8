package oauth

import (
	"context"
	"net/url"
	"strings"
)

// DiscoverResource finds the protected resource metadata of the MCP server
// at serverURL (RFC 9728) and checks it with CheckResource. It tries, in
// this order, each URL once, stopping at the first document found:
// ch.ResourceMetadata when the challenge names an absolute http(s) URL
// (anything else there is ignored), the path-aware
// /.well-known/oauth-protected-resource/<path> at the server's origin
// (skipped when the server's path is empty or "/"; the query is not
// carried over), then the root /.well-known/oauth-protected-resource. A
// 3xx (never followed), 4xx or 502 answer, or a request that could not be
// sent or read, moves on to the next URL; every URL passes c.Check first,
// and a refusal stops discovery with that error, unchanged.
//
// It returns nil, nil when no location has a document (the 2025-03-26
// fallback, LegacyServer), the error of the first request that could not
// be sent when that was the only reason nothing was found, and an *Error
// of StepDiscovery for a server URL that is not http(s), another status,
// a document that is malformed, names no resource or no authorization
// server, or whose resource is not this server's (checked at once: the
// next location is not tried).
func DiscoverResource(ctx context.Context, c *Client, serverURL string, ch Challenge) (*ResourceMetadata, error) {
	u, err := httpURL(serverURL)
	if err != nil {
		return nil, c.Secrets.errorf(StepDiscovery, "", "", "the MCP server URL %s is refused: %v", redactURL(serverURL), err)
	}
	l := &lookup{c: c, step: StepDiscovery}
	for _, loc := range resourceLocations(u, ch.ResourceMetadata) {
		var prm ResourceMetadata
		found, err := l.get(ctx, loc, &prm)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		prm.URL = loc
		if err := checkResourceDoc(c, &prm); err != nil {
			return nil, err
		}
		if e := resourceMismatch(&prm, serverURL, c.Secrets); e != nil {
			return nil, e
		}
		return &prm, nil
	}
	return nil, l.soft
}

// resourceLocations are the URLs DiscoverResource tries, in order, each
// once; a header value that is not an absolute http(s) URL is skipped.
func resourceLocations(u *url.URL, fromHeader string) []string {
	var out []string
	if _, err := httpURL(fromHeader); err == nil {
		out = append(out, fromHeader)
	}
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = appendNew(out, wellKnown(u, "oauth-protected-resource", p))
	}
	return appendNew(out, wellKnown(u, "oauth-protected-resource", ""))
}

// appendNew appends s to list unless it is there already.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// checkResourceDoc refuses a document without a usable resource or
// authorization server.
func checkResourceDoc(c *Client, prm *ResourceMetadata) error {
	if prm.Resource == "" {
		return c.Secrets.errorf(StepDiscovery, "", "", "the protected resource metadata at %s names no resource", redactURL(prm.URL))
	}
	if len(prm.AuthorizationServers) == 0 || prm.AuthorizationServers[0] == "" {
		return c.Secrets.errorf(StepDiscovery, "", "", "the protected resource metadata at %s lists no authorization server", redactURL(prm.URL))
	}
	return nil
}

// CheckResource refuses (StepDiscovery) resource metadata whose resource
// is not the MCP server at serverURL, so a token is never asked for
// another resource: the resource must be an http(s) URL without a
// fragment, of the server's origin (scheme, host and port, compared
// without regard to case and with default ports implied), whose path is
// the server's path or a parent of it on a "/" boundary ("/api" covers
// "/api" and "/api/mcp", not "/api2"), and whose query, when it has one,
// is the server's. A nil prm is refused too.
func CheckResource(prm *ResourceMetadata, serverURL string) error {
	if e := resourceMismatch(prm, serverURL, nil); e != nil {
		return e
	}
	return nil
}

// resourceMismatch is CheckResource's refusal (nil: accepted), its message
// scrubbed of secrets.
func resourceMismatch(prm *ResourceMetadata, serverURL string, secrets *Secrets) *Error {
	if prm == nil {
		return &Error{Step: StepDiscovery, Message: "no protected resource metadata to check"}
	}
	res, rerr := httpURL(prm.Resource)
	srv, serr := httpURL(serverURL)
	ok := rerr == nil && serr == nil && res.Fragment == "" && origin(res) == origin(srv) &&
		pathCovers(res.EscapedPath(), srv.EscapedPath()) &&
		(res.RawQuery == "" || res.RawQuery == srv.RawQuery)
	if ok {
		return nil
	}
	return secrets.errorf(StepDiscovery, "", "",
		"the protected resource metadata names the resource %s, which is not the MCP server %s: no token is asked for it",
		redactURL(prm.Resource), redactURL(serverURL))
}

// pathCovers reports whether resource path rp is sp or a parent of it.
func pathCovers(rp, sp string) bool {
	rp = strings.TrimSuffix(rp, "/") + "/"
	sp = strings.TrimSuffix(sp, "/") + "/"
	return strings.HasPrefix(sp, rp)
}

// ResourceFor is the RFC 8707 resource to send in the authorization and
// token requests for the MCP server at serverURL: the resource prm names
// (as published, once CheckResource accepted it), or without resource
// metadata (the 2025-03-26 fallback) the server's canonical URI: its
// origin (scheme and host lower-cased, default port dropped) and path,
// without query, fragment or a lone trailing "/". It is "" for a server URL
// that is not http(s).
func ResourceFor(prm *ResourceMetadata, serverURL string) string {
	if prm != nil && prm.Resource != "" {
		return prm.Resource
	}
	u, err := httpURL(serverURL)
	if err != nil {
		return ""
	}
	p := u.EscapedPath()
	if p == "/" {
		p = ""
	}
	return origin(u) + p
}
