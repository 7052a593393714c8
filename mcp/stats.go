package mcp

import "sync/atomic"

// Stats counts what a pool's connections dropped, limited or refused in
// their servers' traffic, since the pool was made (docs/security.md,
// "Answers, server requests and resumed streams"). JS reads it through
// tg[Symbol.for("toolgate.debug")].mcpStats().
type Stats struct {
	// AnswersDropped counts JSON-RPC answers whose id matched no request
	// waiting for one (on a request's own stream: not its id).
	AnswersDropped int64 `json:"answersDropped"`
	// ServerRequestsAnswered counts the server's own requests (pings, and
	// those a client hook answers) that were answered.
	ServerRequestsAnswered int64 `json:"serverRequestsAnswered"`
	// ServerRequestsDropped counts those that were not: over the rate, while
	// or while another answer was in flight.
	ServerRequestsDropped int64 `json:"serverRequestsDropped"`
	// StreamResumes counts SSE answer streams resumed after the server ended
	// them before the answer.
	StreamResumes int64 `json:"streamResumes"`
	// StreamResumesRefused counts resumes refused because one request's
	// stream had been resumed maxStreamResumes times already.
	StreamResumesRefused int64 `json:"streamResumesRefused"`
	// ProgressDelivered counts progress notifications passed to a hook.
	ProgressDelivered int64 `json:"progressDelivered"`
	// ProgressDropped counts those that were not: a token of no call in
	// progress (or of one that ended), no numeric progress, or past
	// maxProgressPerCall.
	ProgressDropped int64 `json:"progressDropped"`
	// ListChanged counts notifications/tools/list_changed received.
	ListChanged int64 `json:"listChanged"`
	// ToolRefreshes counts the refreshes of a registration's tools they
	// caused (failed ones included).
	ToolRefreshes int64 `json:"toolRefreshes"`
	// RefreshesCoalesced counts list changes folded into a refresh already
	// scheduled or running (listchanged.go).
	RefreshesCoalesced int64 `json:"refreshesCoalesced"`
	// RefreshesDelayed counts refreshes that waited beyond the debounce
	// for the registration's refresh budget (listChangedMinInterval,
	// listChangedLoad).
	RefreshesDelayed int64 `json:"refreshesDelayed"`
	// ToolsReused counts tools a refresh kept as they were, without
	// checking, compiling or building them again, because the server sent
	// their descriptor again byte for byte (reuse.go).
	ToolsReused int64 `json:"toolsReused"`
	// NotificationsThrottled counts notifications after which a stream
	// waited for its notification byte budget (notifybudget.go).
	NotificationsThrottled int64 `json:"notificationsThrottled"`
	// NotificationsIgnored counts notifications not acted on: a method the
	// client does not follow, or a list change from a server that did not
	// declare listChanged or that no registration follows.
	NotificationsIgnored int64 `json:"notificationsIgnored"`
	// StandaloneStreams counts the standalone GET streams opened
	// (Streamable HTTP), and the modern wire's subscriptions/listen
	// streams, reconnections included.
	StandaloneStreams int64 `json:"standaloneStreams"`
	// ListCacheHits counts tools/list pages served from the pool's cache
	// (a modern server's ttlMs: listcache.go) instead of the server.
	ListCacheHits int64 `json:"listCacheHits"`
	// EraProbes counts the server/discover probes sent to find a server's
	// protocol era (era.go); connections whose era was cached send none.
	EraProbes int64 `json:"eraProbes"`
	// StaleRetries counts requests sent again because the kept-alive
	// connection they went out on had been closed by the server
	// (staleConnection).
	StaleRetries int64 `json:"staleRetries"`
}

// counters are a pool's Stats as they are counted.
type counters struct {
	answersDropped, serverRequestsAnswered, serverRequestsDropped atomic.Int64
	streamResumes, streamResumesRefused                           atomic.Int64
	progressDelivered, progressDropped, listChanged               atomic.Int64
	toolRefreshes, notificationsIgnored, standaloneStreams        atomic.Int64
	listCacheHits, eraProbes, staleRetries                        atomic.Int64
	refreshesCoalesced, refreshesDelayed, toolsReused             atomic.Int64
	notificationsThrottled                                        atomic.Int64
}

// Stats returns what the pool's connections have counted so far.
func (p *Pool) Stats() Stats {
	c := &p.stats
	return Stats{
		AnswersDropped:         c.answersDropped.Load(),
		ServerRequestsAnswered: c.serverRequestsAnswered.Load(),
		ServerRequestsDropped:  c.serverRequestsDropped.Load(),
		StreamResumes:          c.streamResumes.Load(),
		StreamResumesRefused:   c.streamResumesRefused.Load(),
		ProgressDelivered:      c.progressDelivered.Load(),
		ProgressDropped:        c.progressDropped.Load(),
		ListChanged:            c.listChanged.Load(),
		ToolRefreshes:          c.toolRefreshes.Load(),
		RefreshesCoalesced:     c.refreshesCoalesced.Load(),
		RefreshesDelayed:       c.refreshesDelayed.Load(),
		ToolsReused:            c.toolsReused.Load(),
		NotificationsThrottled: c.notificationsThrottled.Load(),
		NotificationsIgnored:   c.notificationsIgnored.Load(),
		StandaloneStreams:      c.standaloneStreams.Load(),
		ListCacheHits:          c.listCacheHits.Load(),
		EraProbes:              c.eraProbes.Load(),
		StaleRetries:           c.staleRetries.Load(),
	}
}
