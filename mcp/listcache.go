package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// The tools/list cache (docs/mcp-eras.md, "What is cached"): a modern
// server's tools/list pages carry ttlMs, how long the client may consider
// them fresh, and cacheScope: "public" (the same for every caller) or
// "private" (for this authorization only). A fresh page is served from the
// pool's cache instead of being fetched: a second registration of the same
// server, a loader, or a refresh within the TTL costs no round trip. A
// private page is kept per principal (the server config's headers and the
// registration's OAuth provider), a public one per URL and cursor. A
// notifications/tools/list_changed drops the server's pages at once. Pages
// without ttlMs (every legacy server's), with ttlMs 0 or less, or that are
// not complete results are never kept. The cache holds at most
// listCacheBytes; the page that would go over it is not kept.

// listCacheBytes bounds the bytes of the pages the cache keeps.
var listCacheBytes = 16 << 20

// listKey is one cached page: the server's URL, the page's cursor, and the
// principal for a private page ("" for a public one).
type listKey struct {
	url, cursor, principal string
}

// listPage is one cached page and when it goes stale.
type listPage struct {
	raw   json.RawMessage
	until time.Time
}

// listCache is a pool's cache of tools/list pages. It is safe for
// concurrent use.
type listCache struct {
	mu    sync.Mutex
	pages map[listKey]listPage
	bytes int
}

// get returns the fresh page of url and cursor for principal (a private
// one of the principal, else a public one).
func (c *listCache) get(url, cursor, principal string, now time.Time) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range []listKey{{url, cursor, principal}, {url, cursor, ""}} {
		if pg, ok := c.pages[k]; ok {
			if now.Before(pg.until) {
				return pg.raw, true
			}
			c.drop(k)
		}
	}
	return nil, false
}

// put keeps raw under its hints: for ttlMs from now, per principal when
// its cacheScope is not "public". It keeps nothing without a positive
// ttlMs, or past listCacheBytes.
func (c *listCache) put(url, cursor, principal string, raw json.RawMessage, now time.Time) {
	ttl, public := cacheHints(raw)
	if ttl <= 0 {
		return
	}
	k := listKey{url: url, cursor: cursor, principal: principal}
	if public {
		k.principal = ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(k)
	if c.bytes+len(raw) > listCacheBytes {
		return
	}
	if c.pages == nil {
		c.pages = map[listKey]listPage{}
	}
	c.pages[k] = listPage{raw: raw, until: now.Add(ttl)}
	c.bytes += len(raw)
}

// invalidate drops every page of url: its list changed.
func (c *listCache) invalidate(url string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.pages {
		if k.url == url {
			c.drop(k)
		}
	}
}

// drop forgets k (c.mu held).
func (c *listCache) drop(k listKey) {
	if pg, ok := c.pages[k]; ok {
		c.bytes -= len(pg.raw)
		delete(c.pages, k)
	}
}

// cacheHints reads a list result's ttlMs (0 when absent, negative or not
// a number; capped at a day) and whether its cacheScope is "public"; a
// result whose resultType is not "complete" has no TTL.
func cacheHints(raw json.RawMessage) (time.Duration, bool) {
	fields, ok := jsontext.Members(raw)
	if !ok || resultType(raw) != "complete" {
		return 0, false
	}
	var ttl float64
	if json.Unmarshal(fields["ttlMs"], &ttl) != nil || ttl <= 0 {
		return 0, false
	}
	ttl = min(ttl, float64(24*time.Hour/time.Millisecond))
	return time.Duration(ttl) * time.Millisecond, jsontext.StringMember(fields, "cacheScope") == "public"
}

// principalOf is the authorization a private page is kept for: the
// server config's headers (and name, URL, transport) and the
// registration's OAuth provider.
func principalOf(e *entry) string {
	return configFingerprint(e.cfg) + "\x00" + e.cfg.auth.key()
}

// listPageOf returns one tools/list page of the server of e at cursor: on
// the modern wire a fresh cached one, or the server's answer (kept when
// its hints allow); on the legacy wire always the server's.
func (p *Pool) listPageOf(ctx context.Context, e *entry, c *conn, cursor string) (json.RawMessage, error) {
	params := map[string]any{}
	if cursor != "" {
		params["cursor"] = cursor
	}
	if !c.sess.isModern() {
		return p.request(ctx, e, c, "", "tools/list", params)
	}
	principal := principalOf(e)
	if raw, ok := p.lists.get(e.cfg.URL, cursor, principal, time.Now()); ok {
		p.stats.listCacheHits.Add(1)
		return raw, nil
	}
	raw, err := p.request(ctx, e, c, "", "tools/list", params)
	if err == nil {
		p.lists.put(e.cfg.URL, cursor, principal, raw, time.Now())
	}
	return raw, err
}
