package core

import (
	mathrand "math/rand/v2"
	"sync"
	"time"
)

// Identity of records: a UUID and a creation time, as LionAGI stamps every
// Element.

// uuidRNG is ChaCha8 (a CSPRNG) seeded once from the runtime's generator,
// itself ChaCha8 seeded from the platform's random source at start
// (crypto.getRandomValues under WebAssembly). Not crypto/rand: that
// package links AES, SHA-3, SHA-512, HMAC and a DRBG into the core build
// (about 30 KiB brotli) for 32 bytes of seed.
var (
	uuidMu  sync.Mutex
	uuidRNG = func() *mathrand.ChaCha8 {
		var seed [32]byte
		for i := 0; i < len(seed); i += 8 {
			v := mathrand.Uint64()
			for j := range 8 {
				seed[i+j] = byte(v >> (8 * j))
			}
		}
		return mathrand.NewChaCha8(seed)
	}()
)

// hexDigits spells a byte's nibbles.
const hexDigits = "0123456789abcdef"

// newUUID4 returns a random (version 4) UUID string from uuidRNG.
func newUUID4() string {
	var b [16]byte
	uuidMu.Lock()
	_, _ = uuidRNG.Read(b[:])
	uuidMu.Unlock()
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	n := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s[n] = '-'
			n++
		}
		s[n], s[n+1] = hexDigits[c>>4], hexDigits[c&0x0f]
		n += 2
	}
	return string(s[:])
}

// epochSeconds is the current time in epoch seconds, to the microsecond.
func epochSeconds() float64 {
	return float64(time.Now().UnixMicro()) / 1e6
}
