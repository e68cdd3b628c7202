mod abuse;
mod contracted;
mod entrances;
mod header;
mod polish;
mod programs;
mod sizes;
