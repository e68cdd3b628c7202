//! Reading and writing map and scenario files.
