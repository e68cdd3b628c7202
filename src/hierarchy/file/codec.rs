//! The byte codec: little-endian integers and length-prefixed arrays,
//! written and read back as checksummed streams.
//!
//! Reading never allocates more than a length its caller allowed: every
//! length prefix is checked against a bound (what the map and settings allow,
//! see `layout`) and against the bytes left in the file before a single
//! element is stored.

use super::LoadError;
use crate::checksum::WordHasher;
use crate::contraction::StoredInts;
use crate::packed::{Column32, Column64};

/// Writes a file front to back through a buffer of about [`CHUNK`] bytes,
/// checksumming as it goes: the file is never held whole in memory (on a
/// 16,384 x 16,384 map it is over a gigabyte). The first failed write is
/// kept, later ones skipped, and [`Writer::finish`] reports it.
pub(super) struct Writer<'a> {
    buf: Vec<u8>,
    out: &'a mut dyn std::io::Write,
    sum: WordHasher,
    error: Option<std::io::Error>,
}

impl<'a> Writer<'a> {
    pub(super) fn new(out: &'a mut dyn std::io::Write) -> Self {
        Writer {
            buf: Vec::with_capacity(2 * CHUNK),
            out,
            sum: WordHasher::new(),
            error: None,
        }
    }

    /// Hands the buffer on once it holds a chunk.
    #[inline]
    fn spill(&mut self) {
        if self.buf.len() >= CHUNK {
            self.flush();
        }
    }

    fn flush(&mut self) {
        self.sum.write(&self.buf);
        if self.error.is_none()
            && let Err(e) = self.out.write_all(&self.buf)
        {
            self.error = Some(e);
        }
        self.buf.clear();
    }

    /// Writes what is buffered and the checksum of everything written.
    pub(super) fn finish(mut self) -> std::io::Result<()> {
        self.flush();
        let sum = self.sum.finish();
        match self.error {
            Some(e) => Err(e),
            None => self.out.write_all(&sum.to_le_bytes()),
        }
    }

    pub(super) fn raw(&mut self, v: &[u8]) {
        for part in v.chunks(CHUNK) {
            self.buf.extend_from_slice(part);
            self.spill();
        }
    }
    pub(super) fn u8(&mut self, v: u8) {
        self.buf.push(v);
        self.spill();
    }
    pub(super) fn u32(&mut self, v: u32) {
        self.raw(&v.to_le_bytes());
    }
    pub(super) fn u64(&mut self, v: u64) {
        self.raw(&v.to_le_bytes());
    }
    pub(super) fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    /// The values of `v`, `N` little-endian bytes each, a chunk at a time.
    fn array<T: Copy, const N: usize>(&mut self, v: &[T], bytes: impl Fn(T) -> [u8; N]) {
        for part in v.chunks(CHUNK / N) {
            for x in part {
                self.buf.extend_from_slice(&bytes(*x));
            }
            self.spill();
        }
    }
    pub(super) fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        self.array(v, u32::to_le_bytes);
    }
    pub(super) fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        self.array(v, u64::to_le_bytes);
    }
    pub(super) fn bytes(&mut self, v: &[u8]) {
        self.u64(v.len() as u64);
        self.raw(v);
    }
    pub(super) fn col32(&mut self, c: &Column32) {
        match c {
            Column32::Narrow(v) => {
                self.u8(2);
                self.u64(v.len() as u64);
                self.array(v, u16::to_le_bytes);
            }
            Column32::Wide(v) => {
                self.u8(4);
                self.u32s(v);
            }
        }
    }
    pub(super) fn col64(&mut self, c: &Column64) {
        match c {
            Column64::Narrow(v) => {
                self.u8(4);
                self.u32s(v);
            }
            Column64::Wide(v) => {
                self.u8(8);
                self.u64s(v);
            }
        }
    }
    pub(super) fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.raw(s.as_bytes());
    }
    /// Integers of a width the list names: its byte width (2, 4 or 8), then
    /// the array.
    pub(super) fn ints(&mut self, v: &StoredInts) {
        match v {
            StoredInts::U16(v) => {
                self.u8(2);
                self.u64(v.len() as u64);
                self.array(v, u16::to_le_bytes);
            }
            StoredInts::U32(v) => {
                self.u8(4);
                self.u32s(v);
            }
            StoredInts::U64(v) => {
                self.u8(8);
                self.u64s(v);
            }
        }
    }
}

/// Bytes read from a [`Source`] at a time: small enough to stay in cache
/// between the read, the checksum and the decoding.
pub(super) const CHUNK: usize = 128 * 1024;

/// Where a saved hierarchy's bytes come from, consumed front to back. The
/// body is everything before the last eight bytes, the checksum.
pub(super) trait Source {
    /// The unconsumed body bytes ahead: at least `min` of them (`min` is at
    /// most eight and at most [`Source::remaining`]).
    fn peek(&mut self, min: usize) -> Result<&[u8], LoadError>;
    /// Consumes the first `n` bytes of the last [`Source::peek`].
    fn consume(&mut self, n: usize);
    /// Body bytes not yet consumed.
    fn remaining(&self) -> u64;
    /// Consumes the rest of the body and says whether the checksum matches.
    fn checksum_matches(self) -> Result<bool, LoadError>;
}

/// A whole file in memory: [`Hierarchy::from_bytes`](crate::Hierarchy::from_bytes).
pub(super) struct SliceSource<'a> {
    body: &'a [u8],
    at: usize,
    sum: u64,
}

impl<'a> SliceSource<'a> {
    /// `bytes` is at least eight bytes long.
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        SliceSource {
            body,
            at: 0,
            sum: u64::from_le_bytes(sum.try_into().expect("8 bytes")),
        }
    }
}

impl Source for SliceSource<'_> {
    fn peek(&mut self, _min: usize) -> Result<&[u8], LoadError> {
        Ok(&self.body[self.at..])
    }
    fn consume(&mut self, n: usize) {
        self.at += n;
    }
    fn remaining(&self) -> u64 {
        (self.body.len() - self.at) as u64
    }
    fn checksum_matches(self) -> Result<bool, LoadError> {
        let mut h = WordHasher::new();
        h.write(self.body);
        Ok(h.finish() == self.sum)
    }
}

/// A file read a [`CHUNK`] at a time into one small buffer, hashed as it
/// arrives: decoding writes each array once, in its final place, and no copy
/// of the whole file is ever made.
pub(super) struct FileSource {
    file: std::fs::File,
    path: String,
    /// [`CHUNK`] bytes (fewer in tests, to cross many piece boundaries).
    buf: Box<[u8]>,
    /// The unconsumed bytes are `buf[pos..end]`.
    pos: usize,
    end: usize,
    /// Body bytes still in the file.
    unread: u64,
    hasher: WordHasher,
}

impl FileSource {
    /// `len` is the file's length, at least eight bytes; `chunk` (at least
    /// eight) the bytes read at a time.
    pub(super) fn new(file: std::fs::File, path: String, len: u64, chunk: usize) -> Self {
        FileSource {
            file,
            path,
            buf: vec![0; chunk.max(8)].into_boxed_slice(),
            pos: 0,
            end: 0,
            unread: len - 8,
            hasher: WordHasher::new(),
        }
    }

    fn io(&self, source: std::io::Error) -> LoadError {
        LoadError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Reads into `buf[at..at + want]`, some bytes at least.
    fn read_some(&mut self, at: usize, want: usize) -> Result<usize, LoadError> {
        use std::io::Read;
        loop {
            match self.file.read(&mut self.buf[at..at + want]) {
                Ok(0) => return Err(LoadError::Truncated("the file shrank while being read")),
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io(e)),
            }
        }
    }
}

impl Source for FileSource {
    fn peek(&mut self, min: usize) -> Result<&[u8], LoadError> {
        if self.end - self.pos < min {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            while self.end < min {
                let want = (self.buf.len() - self.end).min(self.unread as usize);
                let n = self.read_some(self.end, want)?;
                self.hasher.write(&self.buf[self.end..self.end + n]);
                self.end += n;
                self.unread -= n as u64;
            }
        }
        Ok(&self.buf[self.pos..self.end])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
    fn remaining(&self) -> u64 {
        (self.end - self.pos) as u64 + self.unread
    }
    fn checksum_matches(mut self) -> Result<bool, LoadError> {
        while self.unread > 0 {
            let want = self.buf.len().min(self.unread as usize);
            let n = self.read_some(0, want)?;
            self.hasher.write(&self.buf[..n]);
            self.unread -= n as u64;
        }
        let mut sum = [0u8; 8];
        let mut got = 0;
        while got < 8 {
            let n = self.read_some(0, 8 - got)?;
            sum[got..got + n].copy_from_slice(&self.buf[..n]);
            got += n;
        }
        Ok(self.hasher.finish() == u64::from_le_bytes(sum))
    }
}

/// Decodes the body of a [`Source`].
pub(super) struct Reader<S> {
    pub(super) src: S,
    /// The body's length, to say where a file cut short ends.
    body: u64,
}

impl<S: Source> Reader<S> {
    pub(super) fn new(src: S) -> Self {
        let body = src.remaining();
        Reader { src, body }
    }

    /// The error for `more` bytes wanted past the end of the body.
    fn cut_short(&self, what: &'static str, more: u64) -> LoadError {
        let at = self.body - self.src.remaining();
        LoadError::CutShort {
            what,
            length: self.body + 8,
            expected: (at + 8).saturating_add(more),
        }
    }

    pub(super) fn array<const N: usize>(
        &mut self,
        what: &'static str,
    ) -> Result<[u8; N], LoadError> {
        if self.src.remaining() < N as u64 {
            return Err(self.cut_short(what, N as u64));
        }
        let b: [u8; N] = self.src.peek(N)?[..N].try_into().expect("N bytes");
        self.src.consume(N);
        Ok(b)
    }
    pub(super) fn u8(&mut self, what: &'static str) -> Result<u8, LoadError> {
        Ok(self.array::<1>(what)?[0])
    }
    pub(super) fn u32(&mut self, what: &'static str) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }
    pub(super) fn u64(&mut self, what: &'static str) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }
    pub(super) fn f64(&mut self, what: &'static str) -> Result<f64, LoadError> {
        Ok(f64::from_bits(self.u64(what)?))
    }
    /// A length prefix of `elem`-byte elements: at most `max` (else
    /// [`LoadError::TooLarge`], before anything is allocated), and held by
    /// the body (else [`LoadError::Truncated`]).
    pub(super) fn len(
        &mut self,
        elem: usize,
        max: usize,
        what: &'static str,
    ) -> Result<usize, LoadError> {
        let n = self.u64(what)?;
        if n > max as u64 {
            return Err(LoadError::TooLarge {
                what,
                length: n,
                max: max as u64,
            });
        }
        if n * elem as u64 > self.src.remaining() {
            return Err(self.cut_short(what, n * elem as u64));
        }
        Ok(n as usize)
    }
    /// Hands the next `n` elements of `elem` bytes to `f`, in pieces of whole
    /// elements (`n` was checked by [`Reader::len`]).
    fn each_piece(
        &mut self,
        n: usize,
        elem: usize,
        mut f: impl FnMut(&[u8]),
    ) -> Result<(), LoadError> {
        let mut left = n * elem;
        while left > 0 {
            let ahead = self.src.peek(elem)?;
            let take = ahead.len().min(left) / elem * elem;
            f(&ahead[..take]);
            self.src.consume(take);
            left -= take;
        }
        Ok(())
    }
    /// A length-prefixed array of at most `max` `N`-byte little-endian
    /// integers. (`from_le` is generic, not a `fn` pointer: a pointer is not
    /// inlined, and the decoding then ran at half speed.)
    fn ints<T, const N: usize>(
        &mut self,
        what: &'static str,
        max: usize,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, LoadError> {
        let n = self.len(N, max, what)?;
        let mut v = Vec::with_capacity(n);
        self.each_piece(n, N, |b| {
            v.extend(
                b.chunks_exact(N)
                    .map(|c| from_le(c.try_into().expect("N bytes"))),
            )
        })?;
        Ok(v)
    }
    fn u16s(&mut self, what: &'static str, max: usize) -> Result<Vec<u16>, LoadError> {
        self.ints(what, max, u16::from_le_bytes)
    }
    /// At most `max` `u32`s.
    pub(super) fn u32s(&mut self, what: &'static str, max: usize) -> Result<Vec<u32>, LoadError> {
        self.ints(what, max, u32::from_le_bytes)
    }
    /// At most `max` `u64`s.
    pub(super) fn u64s(&mut self, what: &'static str, max: usize) -> Result<Vec<u64>, LoadError> {
        self.ints(what, max, u64::from_le_bytes)
    }
    /// At most `max` bytes.
    pub(super) fn bytes(&mut self, what: &'static str, max: usize) -> Result<Vec<u8>, LoadError> {
        let n = self.len(1, max, what)?;
        let mut v = Vec::with_capacity(n);
        self.each_piece(n, 1, |b| v.extend_from_slice(b))?;
        Ok(v)
    }
    /// A packed column of at most `max` values.
    pub(super) fn col32(&mut self, what: &'static str, max: usize) -> Result<Column32, LoadError> {
        match self.u8(what)? {
            2 => Ok(Column32::Narrow(self.u16s(what, max)?)),
            4 => Ok(Column32::Wide(self.u32s(what, max)?)),
            w => Err(invalid(format!("{what}: unknown column width {w}"))),
        }
    }
    /// A packed column of at most `max` values.
    pub(super) fn col64(&mut self, what: &'static str, max: usize) -> Result<Column64, LoadError> {
        match self.u8(what)? {
            4 => Ok(Column64::Narrow(self.u32s(what, max)?)),
            8 => Ok(Column64::Wide(self.u64s(what, max)?)),
            w => Err(invalid(format!("{what}: unknown column width {w}"))),
        }
    }
    /// At most `max` integers written by [`Writer::ints`].
    pub(super) fn ints_any(
        &mut self,
        what: &'static str,
        max: usize,
    ) -> Result<StoredInts, LoadError> {
        match self.u8(what)? {
            2 => Ok(StoredInts::U16(self.u16s(what, max)?)),
            4 => Ok(StoredInts::U32(self.u32s(what, max)?)),
            8 => Ok(StoredInts::U64(self.u64s(what, max)?)),
            w => Err(invalid(format!("{what}: unknown integer width {w}"))),
        }
    }
    /// A UTF-8 string of at most `max` bytes.
    pub(super) fn str(&mut self, what: &'static str, max: usize) -> Result<String, LoadError> {
        String::from_utf8(self.bytes(what, max)?)
            .map_err(|_| LoadError::Invalid(format!("{what} is not UTF-8")))
    }
}

/// Invalid content, named by `msg`.
pub(super) fn invalid(msg: impl Into<String>) -> LoadError {
    LoadError::Invalid(msg.into())
}
