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
}

// counters are a pool's Stats as they are counted.
type counters struct {
	answersDropped, serverRequestsAnswered, serverRequestsDropped atomic.Int64
	streamResumes, streamResumesRefused                           atomic.Int64
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
	}
}
