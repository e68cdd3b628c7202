mod abuse;
mod header;
mod programs;
