"""A small Cargo workspace for the Rust plugin's tests: two member crates, one a `path`
dependency of the other (through `[workspace.dependencies]`), modules as files and folders,
`pub use` re-exports, and a method only ever called on a value."""

from __future__ import annotations

FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n\n[workspace.dependencies]\ncore-lib = { path = "crates/core-lib" }\n',
    "crates/core-lib/Cargo.toml": '[package]\nname = "core-lib"\nversion = "0.1.0"\n',
    "crates/core-lib/src/lib.rs": (
        "pub mod config;\nmod parser;\npub mod util;\n\n"
        "pub use parser::Parser;\npub use config::*;\n"
    ),
    "crates/core-lib/src/config.rs": (
        "pub struct Config {\n    pub name: String,\n}\n\n"
        "pub fn load() -> Config {\n    Config { name: String::new() }\n}\n"
    ),
    "crates/core-lib/src/parser/mod.rs": (
        "mod token;\n\nuse self::token::Token;\nuse super::util::trim;\n\n"
        "pub struct Parser {\n    tokens: Vec<Token>,\n}\n\n"
        "impl Parser {\n    pub fn new() -> Self {\n        Parser { tokens: Vec::new() }\n    }\n\n"
        "    pub fn parse(&self, text: &str) -> usize {\n        trim(text).len()\n    }\n}\n"
    ),
    "crates/core-lib/src/parser/token.rs": "pub struct Token;\n",
    "crates/core-lib/src/util.rs": "pub fn trim(text: &str) -> &str {\n    text.trim()\n}\n",
    "crates/app/Cargo.toml": (
        '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ncore-lib.workspace = true\nserde = "1"\n'
    ),
    "crates/app/src/main.rs": (
        "mod cli;\n\nuse core_lib::Parser;\nuse std::collections::HashMap;\n\n"
        "fn main() {\n    let parser = Parser::new();\n    let config = core_lib::load();\n"
        "    cli::run(&parser);\n    let _ = (config, HashMap::<u8, u8>::new());\n}\n"
    ),
    "crates/app/src/cli.rs": (
        "use core_lib::Parser;\n\npub fn run(parser: &Parser) {\n    parser.parse(\"x\");\n}\n"
    ),
}
