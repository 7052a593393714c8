package core

import (
	"crypto/rand"
	"encoding/hex"
	mathrand "math/rand/v2"
	"strings"
	"sync"
	"time"
)

// Identity of records: a UUID and a creation time, as LionAGI stamps every
// Element.

// uuidRNG is ChaCha8 (a CSPRNG) seeded once from crypto/rand: one random
// read per process instead of one per call, which under WebAssembly is a
// call out to JavaScript.
var (
	uuidMu  sync.Mutex
	uuidRNG = func() *mathrand.ChaCha8 {
		var seed [32]byte
		_, _ = rand.Read(seed[:])
		return mathrand.NewChaCha8(seed)
	}()
)

// newUUID4 returns a random (version 4) UUID string from uuidRNG.
func newUUID4() string {
	var b [16]byte
	uuidMu.Lock()
	_, _ = uuidRNG.Read(b[:])
	uuidMu.Unlock()
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s strings.Builder
	h := hex.EncodeToString(b[:])
	s.WriteString(h[0:8])
	s.WriteByte('-')
	s.WriteString(h[8:12])
	s.WriteByte('-')
	s.WriteString(h[12:16])
	s.WriteByte('-')
	s.WriteString(h[16:20])
	s.WriteByte('-')
	s.WriteString(h[20:32])
	return s.String()
}

// epochSeconds is the current time in epoch seconds, to the microsecond.
func epochSeconds() float64 {
	return float64(time.Now().UnixMicro()) / 1e6
}
