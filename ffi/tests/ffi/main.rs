mod abuse;
mod contracted;
mod header;
mod polish;
mod programs;
mod sizes;
