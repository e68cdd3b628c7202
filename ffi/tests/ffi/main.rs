mod abuse;
mod header;
mod programs;
mod sizes;
