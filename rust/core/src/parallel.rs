//! Thread pools: work runs on rayon's global pool unless a caller asks for a given
//! number of threads, in which case a pool of that size is built once and reused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Runs `work` on `threads` threads (`None`: all cores, rayon's global pool).
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    match threads {
        None => work(),
        Some(n) => pool(n.max(1)).install(work),
    }
}

fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    pools
        .entry(threads)
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a thread pool can be built"),
            )
        })
        .clone()
}
