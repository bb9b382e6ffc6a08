package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
)

// formatVersion changes whenever a cached table's layout or meaning does,
// so that an older engine's files are rebuilt, not misread.
const formatVersion = 1

// DefaultCacheDir is where the judge keeps tables between runs:
// os.UserCacheDir()/optjudge/puzzles. Callers pass it in Options.CacheDir;
// the engine itself reads no environment.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "optjudge", "puzzles"), nil
}

// Key returns the hash of everything in sp that its tables depend on (not
// the moves' names), in hex: two definitions that differ only in names
// share their tables.
func (sp *Spec) Key() string {
	h := sha256.New()
	w := func(vs ...int) {
		for _, v := range vs {
			binary.Write(h, binary.LittleEndian, int64(v))
		}
	}
	ints := func(xs []int) {
		w(len(xs))
		w(xs...)
	}
	w(formatVersion, sp.Cells, sp.Symbols, sp.Orient, sp.Rows, sp.Cols, sp.Blank, int(sp.Method))
	ints(sp.Counts)
	if sp.OrientOf != nil {
		// Only then, so that the keys of other puzzles stay as they were.
		ints(sp.OrientOf)
	}
	w(len(sp.Moves))
	for _, m := range sp.Moves {
		ints(m.Perm)
		ints(m.Twist)
		ints(m.Add)
		w(int(m.Slide), m.Cost)
	}
	w(len(sp.Goal.States))
	for _, s := range sp.Goal.States {
		w(len(s))
		h.Write(s)
	}
	ints(sp.Goal.Same)
	w(len(sp.Patterns))
	for _, p := range sp.Patterns {
		ints(p)
	}
	if sp.Rules != nil {
		h.Write([]byte(sp.Rules.Fingerprint()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// blobMagic starts every cache file.
var blobMagic = []byte("OJPUZTBL")

// cacheKey names one table of one puzzle: the puzzle's key and the
// table's own name.
func cacheKey(spec, name string) [32]byte {
	return sha256.Sum256([]byte(spec + "\x00" + name))
}

// loadBlob returns the payload cached under key, false when there is none
// or the file is damaged or another table's.
func loadBlob(dir string, key [32]byte) ([]byte, bool) {
	if dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(blobPath(dir, key))
	if err != nil {
		return nil, false
	}
	p, err := openBlob(data, key)
	return p, err == nil
}

func blobPath(dir string, key [32]byte) string {
	return filepath.Join(dir, hex.EncodeToString(key[:16])+".tbl")
}

// openBlob checks a cache file's header: the magic, the format version,
// the full key, the payload's length and checksum.
func openBlob(data []byte, key [32]byte) ([]byte, error) {
	const header = 8 + 4 + 32 + 8 + 4
	if len(data) < header || !bytes.Equal(data[:8], blobMagic) {
		return nil, errors.New("not a table")
	}
	if binary.LittleEndian.Uint32(data[8:]) != formatVersion || !bytes.Equal(data[12:44], key[:]) {
		return nil, errors.New("another table")
	}
	n := binary.LittleEndian.Uint64(data[44:])
	sum := binary.LittleEndian.Uint32(data[52:])
	p := data[header:]
	if uint64(len(p)) != n || crc32.Checksum(p, castagnoli) != sum {
		return nil, errors.New("damaged table")
	}
	return p, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// storeBlob writes payload under key atomically: a temporary file in the
// same directory, renamed over the name. Builders that race each write a
// whole file, and readers see one whole file or the other. Failing to
// write is not an error: the table is then rebuilt next time.
func storeBlob(dir string, key [32]byte, payload []byte) {
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-*.tbl")
	if err != nil {
		return
	}
	var h bytes.Buffer
	h.Write(blobMagic)
	binary.Write(&h, binary.LittleEndian, uint32(formatVersion))
	h.Write(key[:])
	binary.Write(&h, binary.LittleEndian, uint64(len(payload)))
	binary.Write(&h, binary.LittleEndian, crc32.Checksum(payload, castagnoli))
	_, err1 := f.Write(h.Bytes())
	_, err2 := f.Write(payload)
	err3 := f.Close()
	if err1 != nil || err2 != nil || err3 != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), blobPath(dir, key)); err != nil {
		os.Remove(f.Name())
	}
}
