mod abuse;
mod contracted;
mod header;
mod programs;
mod sizes;
