//! The edge of the boundary: status codes, the per-thread last error, the
//! registry of live handles, and checked access to the caller's pointers.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, MutexGuard, OnceLock, RwLock, TryLockError};

use tierpath::{
    BuildError, ContractionError, EditError, GridError, LoadError, QueryError, io::IoError,
};

/// What a call did. `TIERPATH_STATUS_OK` (0) is success; anything else is a failure
/// whose message [`tierpath_last_error`] gives.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathStatus {
    /// Success.
    Ok = 0,
    /// A required pointer argument was null.
    NullArgument = 1,
    /// A handle that is not a live handle of the expected type (freed,
    /// foreign, or of another type).
    InvalidHandle = 2,
    /// An argument out of range (settings, sizes, weights, ids, UTF-8).
    InvalidArgument = 3,
    /// A point off the map.
    OffMap = 4,
    /// A query endpoint on a blocked cell, or where the query's unit does
    /// not fit (a cell too narrow for its size).
    Blocked = 5,
    /// The caller's buffer is too small; the required size was written.
    BufferTooSmall = 6,
    /// A file could not be read or written.
    Io = 7,
    /// A map that could not be parsed.
    BadMap = 8,
    /// A hierarchy file or buffer that is damaged, of another version, or
    /// not a hierarchy.
    BadHierarchy = 9,
    /// A hierarchy built for another map, or a sliced query or queue given
    /// another hierarchy than the one it serves.
    WrongHierarchy = 10,
    /// A result asked for before it is ready (a query in progress, a request
    /// not answered yet, no finished request).
    NotReady = 11,
    /// A per-thread object (cache, sliced query, queue) in use by another
    /// thread.
    Busy = 12,
    /// A bug inside tierpath (a panic caught at the boundary).
    Panic = 13,
}

/// A failure: its status and message.
pub(crate) struct Fail {
    pub status: TierpathStatus,
    pub message: String,
}

pub(crate) type Res<T = ()> = Result<T, Fail>;

pub(crate) fn fail<T>(status: TierpathStatus, message: impl Into<String>) -> Res<T> {
    Err(Fail {
        status,
        message: message.into(),
    })
}

impl Fail {
    fn of(status: TierpathStatus, e: impl std::fmt::Display) -> Fail {
        Fail {
            status,
            message: e.to_string(),
        }
    }
}

impl From<QueryError> for Fail {
    fn from(e: QueryError) -> Fail {
        let status = match e {
            QueryError::OffMap { .. } => TierpathStatus::OffMap,
            QueryError::Blocked { .. } | QueryError::DoesNotFit { .. } => TierpathStatus::Blocked,
            QueryError::Unsupported(_) => TierpathStatus::WrongHierarchy,
            _ => TierpathStatus::InvalidArgument,
        };
        Fail::of(status, e)
    }
}

impl From<LoadError> for Fail {
    fn from(e: LoadError) -> Fail {
        let status = match e {
            LoadError::Io { .. } => TierpathStatus::Io,
            LoadError::MapMismatch { .. } => TierpathStatus::WrongHierarchy,
            _ => TierpathStatus::BadHierarchy,
        };
        Fail::of(status, e)
    }
}

impl From<IoError> for Fail {
    fn from(e: IoError) -> Fail {
        let status = match e {
            IoError::Read { .. } | IoError::Write { .. } => TierpathStatus::Io,
            _ => TierpathStatus::BadMap,
        };
        Fail::of(status, e)
    }
}

impl From<GridError> for Fail {
    fn from(e: GridError) -> Fail {
        let status = match e {
            GridError::OutOfBounds { .. } => TierpathStatus::OffMap,
            _ => TierpathStatus::InvalidArgument,
        };
        Fail::of(status, e)
    }
}

impl From<BuildError> for Fail {
    fn from(e: BuildError) -> Fail {
        Fail::of(TierpathStatus::InvalidArgument, e)
    }
}

impl From<ContractionError> for Fail {
    fn from(e: ContractionError) -> Fail {
        Fail::of(TierpathStatus::InvalidArgument, e)
    }
}

impl From<EditError> for Fail {
    fn from(e: EditError) -> Fail {
        let status = match e {
            EditError::OffMap { .. } => TierpathStatus::OffMap,
            _ => TierpathStatus::InvalidArgument,
        };
        Fail::of(status, e)
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// Runs the body of an exported function: catches panics, records the
/// message of a failure, returns the status.
pub(crate) fn guard(body: impl FnOnce() -> Res) -> TierpathStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => TierpathStatus::Ok,
        Ok(Err(f)) => {
            set_last_error(&f.message);
            f.status
        }
        Err(panic) => {
            set_last_error(&format!("internal error (panic): {}", panic_text(&*panic)));
            TierpathStatus::Panic
        }
    }
}

fn panic_text(panic: &(dyn Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "unknown panic"
    }
}

/// The message of the last failed call on this thread (empty before any
/// failure). Never null. The text stays valid until the next failed call on
/// this thread; successful calls leave it as it was.
#[unsafe(no_mangle)]
pub extern "C" fn tierpath_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// A short constant name for a status code, such as `"TIERPATH_STATUS_BLOCKED"`
/// (`"TIERPATH_STATUS_UNKNOWN"` for a value that is none). Never null.
#[unsafe(no_mangle)]
pub extern "C" fn tierpath_status_name(status: i32) -> *const c_char {
    let name: &'static CStr = match status {
        0 => c"TIERPATH_STATUS_OK",
        1 => c"TIERPATH_STATUS_NULL_ARGUMENT",
        2 => c"TIERPATH_STATUS_INVALID_HANDLE",
        3 => c"TIERPATH_STATUS_INVALID_ARGUMENT",
        4 => c"TIERPATH_STATUS_OFF_MAP",
        5 => c"TIERPATH_STATUS_BLOCKED",
        6 => c"TIERPATH_STATUS_BUFFER_TOO_SMALL",
        7 => c"TIERPATH_STATUS_IO",
        8 => c"TIERPATH_STATUS_BAD_MAP",
        9 => c"TIERPATH_STATUS_BAD_HIERARCHY",
        10 => c"TIERPATH_STATUS_WRONG_HIERARCHY",
        11 => c"TIERPATH_STATUS_NOT_READY",
        12 => c"TIERPATH_STATUS_BUSY",
        13 => c"TIERPATH_STATUS_PANIC",
        _ => c"TIERPATH_STATUS_UNKNOWN",
    };
    name.as_ptr()
}

/// The version of this library, such as `"0.1.0"`. Never null.
#[unsafe(no_mangle)]
pub extern "C" fn tierpath_version() -> *const c_char {
    static VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

/// The kinds of handle, as recorded in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Map,
    Hierarchy,
    Cache,
    Path,
    Sliced,
    Queue,
    Repair,
}

/// A type handed to C as an opaque handle.
pub(crate) trait Handle: Sized {
    const KIND: Kind;
    const NAME: &'static str;
}

/// Live handles by address. A handle is valid exactly while it is here, so a
/// freed, foreign or wrongly typed pointer is refused before it is read.
fn registry() -> &'static RwLock<HashMap<usize, Kind>> {
    static LIVE: OnceLock<RwLock<HashMap<usize, Kind>>> = OnceLock::new();
    LIVE.get_or_init(Default::default)
}

/// Boxes `value`, registers it and writes it to `out`.
pub(crate) unsafe fn publish<T: Handle>(value: T, out: *mut *mut T) -> Res {
    if out.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            "the output handle pointer is null",
        );
    }
    let raw = Box::into_raw(Box::new(value));
    registry()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(raw as usize, T::KIND);
    // SAFETY: checked non-null; the caller passes a writable pointer.
    unsafe { *out = raw };
    Ok(())
}

/// Clears an output handle pointer (when not null) so a failed call leaves
/// null behind.
pub(crate) unsafe fn clear_out<T>(out: *mut *mut T) {
    if !out.is_null() {
        // SAFETY: non-null and writable by the caller's contract.
        unsafe { *out = std::ptr::null_mut() };
    }
}

/// Checks a required output handle pointer and clears it, before any work,
/// so a failed call leaves null behind.
pub(crate) unsafe fn required_out<T>(out: *mut *mut T) -> Res {
    if out.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            "the output handle pointer is null",
        );
    }
    // SAFETY: forwarded caller contract.
    unsafe { clear_out(out) };
    Ok(())
}

/// The live handle behind `ptr`.
pub(crate) unsafe fn get<'a, T: Handle>(ptr: *const T) -> Res<&'a T> {
    if ptr.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            format!("the {} handle is null", T::NAME),
        );
    }
    let live = registry()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(&(ptr as usize))
        .copied();
    if live != Some(T::KIND) {
        return fail(
            TierpathStatus::InvalidHandle,
            format!(
                "{ptr:p} is not a live {} handle (freed, foreign, or of another type)",
                T::NAME
            ),
        );
    }
    // SAFETY: registered handles are live boxes of type T.
    Ok(unsafe { &*ptr })
}

/// Unregisters and drops the handle; null is accepted and ignored.
pub(crate) unsafe fn release<T: Handle>(ptr: *mut T) -> TierpathStatus {
    guard(|| {
        if ptr.is_null() {
            return Ok(());
        }
        let removed = {
            let mut live = registry().write().unwrap_or_else(|e| e.into_inner());
            match live.get(&(ptr as usize)) {
                Some(k) if *k == T::KIND => live.remove(&(ptr as usize)).is_some(),
                _ => false,
            }
        };
        if !removed {
            return fail(
                TierpathStatus::InvalidHandle,
                format!(
                    "{ptr:p} is not a live {} handle (already freed, foreign, or of another type)",
                    T::NAME
                ),
            );
        }
        // SAFETY: it was registered, so it came from Box::into_raw, and it is
        // unregistered now, so it is dropped once.
        drop(unsafe { Box::from_raw(ptr) });
        Ok(())
    })
}

/// Locks a per-thread object, refusing (Busy) when another thread holds it.
pub(crate) fn lock<'a, T>(m: &'a Mutex<T>, what: &str) -> Res<MutexGuard<'a, T>> {
    match m.try_lock() {
        Ok(g) => Ok(g),
        Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        Err(TryLockError::WouldBlock) => fail(
            TierpathStatus::Busy,
            format!("the {what} is in use by another thread: use one per thread"),
        ),
    }
}

/// Writes `value` through a required output pointer.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Res {
    if out.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            format!("the {what} pointer is null"),
        );
    }
    // SAFETY: checked non-null; the caller passes a writable pointer.
    unsafe { out.write(value) };
    Ok(())
}

/// Writes `value` through an optional output pointer (null: nothing).
pub(crate) unsafe fn put_opt<T>(out: *mut T, value: T) {
    if !out.is_null() {
        // SAFETY: non-null and writable by the caller's contract.
        unsafe { out.write(value) };
    }
}

/// The caller's array of `len` items (null allowed when `len` is 0).
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize, what: &str) -> Res<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            format!("the {what} pointer is null but its length is {len}"),
        );
    }
    if len > isize::MAX as usize / size_of::<T>().max(1) {
        return fail(
            TierpathStatus::InvalidArgument,
            format!("{what}: length {len} is too large"),
        );
    }
    // SAFETY: the caller guarantees `len` readable items at `ptr`.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Copies `items` into the caller's buffer of `capacity` items, writing the
/// required count to `needed` (optional); BufferTooSmall when it does not fit.
pub(crate) unsafe fn copy_out<T: Copy>(
    items: &[T],
    buffer: *mut T,
    capacity: usize,
    needed: *mut usize,
    what: &str,
) -> Res {
    // SAFETY: forwarded caller contract.
    unsafe { put_opt(needed, items.len()) };
    if items.len() > capacity {
        return fail(
            TierpathStatus::BufferTooSmall,
            format!(
                "{what}: the buffer holds {capacity} but {} are needed",
                items.len()
            ),
        );
    }
    if items.is_empty() {
        return Ok(());
    }
    if buffer.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            format!("the {what} buffer is null"),
        );
    }
    // SAFETY: capacity checked; the caller guarantees `capacity` writable items.
    unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), buffer, items.len()) };
    Ok(())
}

/// A path argument: a NUL-terminated UTF-8 string.
pub(crate) unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Res<&'a str> {
    if ptr.is_null() {
        return fail(
            TierpathStatus::NullArgument,
            format!("the {what} string is null"),
        );
    }
    // SAFETY: the caller passes a NUL-terminated string.
    unsafe { CStr::from_ptr(ptr) }.to_str().or_else(|_| {
        fail(
            TierpathStatus::InvalidArgument,
            format!("the {what} is not valid UTF-8"),
        )
    })
}
