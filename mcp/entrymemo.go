package mcp

import (
	"maps"
	"slices"
	"sync/atomic"
)

// The pool key of a call (entryKeyOf) hashes the server config and the
// policy: a JSON encoding and two SHA-256 sums, on every request. A proxy
// calls with the same *ServerConfig and *Security each time, so it
// remembers the entry they led to with a copy of every field the key
// reads; a call whose config and policy still hold
// exactly those values takes the entry without hashing. A field changed in
// place (a Go caller who mutates a Security after registering) fails the
// comparison and the key is computed again, as before: nothing about which
// connection, policy or caps a call gets depends on the memo.

// entryMemo is one remembered entry with the values its key was made of.
type entryMemo struct {
	e *entry

	name, url, transport, version string
	headers                       map[string]string
	hooks, auth                   string
	sec                           Security // *sec as given (before defaults), its lists cloned
	secNil                        bool
}

// newEntryMemo records e as the entry of cfg under sec (as given).
func newEntryMemo(e *entry, cfg *ServerConfig, sec *Security) *entryMemo {
	m := &entryMemo{
		e: e, name: cfg.Name, url: cfg.URL, transport: cfg.Transport, version: cfg.ProtocolVersion,
		headers: maps.Clone(cfg.Headers), hooks: cfg.hooks.key(), auth: cfg.auth.key(), secNil: sec == nil,
	}
	if sec != nil {
		m.sec = *sec
		m.sec.URLAllowlist = slices.Clone(sec.URLAllowlist)
		m.sec.CommandAllowlist = slices.Clone(sec.CommandAllowlist)
	}
	return m
}

// holds reports whether cfg and sec still hold the values m was made of.
func (m *entryMemo) holds(cfg *ServerConfig, sec *Security) bool {
	if m.name != cfg.Name || m.url != cfg.URL || m.transport != cfg.Transport || m.version != cfg.ProtocolVersion ||
		!maps.Equal(m.headers, cfg.Headers) || (m.headers == nil) != (cfg.Headers == nil) {
		return false
	}
	if m.secNil != (sec == nil) || m.hooks != cfg.hooks.key() || m.auth != cfg.auth.key() {
		return false
	}
	if sec == nil {
		return true
	}
	s := m.sec
	return s.AllowURLs == sec.AllowURLs && s.AllowCommands == sec.AllowCommands &&
		s.MaxConnectionsPerServer == sec.MaxConnectionsPerServer && s.AllowLoopbackHTTP == sec.AllowLoopbackHTTP &&
		s.TimeoutMs == sec.TimeoutMs &&
		s.MaxMessageBytes == sec.MaxMessageBytes &&
		slices.Equal(s.URLAllowlist, sec.URLAllowlist) && (s.URLAllowlist == nil) == (sec.URLAllowlist == nil) &&
		slices.Equal(s.CommandAllowlist, sec.CommandAllowlist) && (s.CommandAllowlist == nil) == (sec.CommandAllowlist == nil)
}

// entrySlot is where a proxy keeps its memo (nil: none yet).
type entrySlot = atomic.Pointer[entryMemo]

// memoEntry returns the entry slot remembers for cfg under sec (as given)
// when they still hold the values it was made of and it is not closed
// (Cleanup), else nil. A nil slot remembers nothing.
func memoEntry(slot *entrySlot, cfg *ServerConfig, sec *Security) *entry {
	if slot == nil {
		return nil
	}
	m := slot.Load()
	if m == nil || !m.holds(cfg, sec) {
		return nil
	}
	m.e.mu.Lock()
	closed := m.e.closed
	m.e.mu.Unlock()
	if closed {
		return nil
	}
	return m.e
}
