pub mod openai;
pub mod resilient;
