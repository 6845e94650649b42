//! Thread pools: work runs on rayon's global pool unless a caller asks for a given
//! number of threads, from 1 to [`MAX_THREADS`] ([`check_threads`]).
//!
//! Pools are bounded: at most [`POOL_CACHE`] pools of a chosen size are kept, the least
//! recently used one is dropped when another size is asked for (its threads end once
//! the work already handed to it is done). So at most `POOL_CACHE * MAX_THREADS` idle
//! threads are ever kept, whatever sizes a caller asks for.
//!
//! After a `fork`, the child has only the thread that forked: work handed to the
//! parent's pool threads would wait forever, and a lock held by another parent thread
//! at the moment of the fork stays locked. So the pool cache is locked around a fork
//! ([`before_fork`], [`after_fork_in_parent`], [`after_fork_in_child`]; the Python
//! package registers them with `os.register_at_fork`): the child starts a new generation
//! of pools and forgets, without touching them, those of its parent. Pools are built
//! outside that lock, so a fork never waits for a pool being built, and the child never
//! touches rayon's global pool (whose start-up may have been cut in two by the fork).

use crate::error::CoreError;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The most threads one call may ask for.
pub const MAX_THREADS: usize = 256;

/// How many pools of a chosen size are kept for reuse.
pub const POOL_CACHE: usize = 4;

/// How many times this process is a forked child; pools belong to one generation.
static GENERATION: AtomicUsize = AtomicUsize::new(0);

/// The kept pools, least recently used first.
struct Pools {
    generation: usize,
    pools: Vec<(usize, Arc<rayon::ThreadPool>)>,
}

fn pools() -> &'static Mutex<Pools> {
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    POOLS.get_or_init(|| {
        Mutex::new(Pools {
            generation: 0,
            pools: Vec::new(),
        })
    })
}

fn lock() -> MutexGuard<'static, Pools> {
    pools().lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// The pool cache, held by the thread that forks from just before to just after.
    static HELD: RefCell<Option<MutexGuard<'static, Pools>>> = const { RefCell::new(None) };
}

/// Checks a thread count asked for by a caller: a whole number from 1 to
/// [`MAX_THREADS`].
pub fn check_threads(threads: i128) -> Result<usize, CoreError> {
    match usize::try_from(threads) {
        Ok(n @ 1..=MAX_THREADS) => Ok(n),
        _ => Err(CoreError::invalid_argument(format!(
            "threads must be a whole number from 1 to {MAX_THREADS}, not {threads}"
        ))),
    }
}

/// Runs `work` on `threads` threads (`None`: all cores, rayon's global pool); a count
/// above [`MAX_THREADS`] is taken as [`MAX_THREADS`].
pub fn with_threads<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> R {
    let generation = GENERATION.load(Ordering::Acquire);
    match threads {
        None if generation == 0 => work(),
        None => pool(generation, default_threads()).install(work),
        Some(n) => pool(generation, n.clamp(1, MAX_THREADS)).install(work),
    }
}

/// One per core, without asking rayon's global pool (which a forked child must not use).
fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_THREADS)
}

/// To be called just before a `fork`, on the thread that forks: takes the pool cache's
/// lock, so that no other thread holds it when the process is copied.
pub fn before_fork() {
    let guard = lock();
    HELD.with(|held| *held.borrow_mut() = Some(guard));
}

/// To be called in the parent after a `fork` (or a failed one): lets the lock go.
pub fn after_fork_in_parent() {
    HELD.with(|held| drop(held.borrow_mut().take()));
}

/// To be called in the child right after a `fork`: the pools inherited from the parent
/// have no threads here, so they are forgotten (never dropped: dropping one would wake
/// threads that do not exist) and later work goes to pools built anew.
pub fn after_fork_in_child() {
    let generation = GENERATION.fetch_add(1, Ordering::AcqRel) + 1;
    let held = HELD.with(|held| held.borrow_mut().take());
    let mut guard = held.unwrap_or_else(lock);
    for (_, pool) in guard.pools.drain(..) {
        std::mem::forget(pool);
    }
    guard.generation = generation;
}

/// How many pools of a chosen size are kept now, and their threads in all.
pub fn kept_pools() -> (usize, usize) {
    let guard = lock();
    let threads = guard.pools.iter().map(|(_, p)| p.current_num_threads());
    (guard.pools.len(), threads.sum())
}

fn pool(generation: usize, threads: usize) -> Arc<rayon::ThreadPool> {
    {
        let mut guard = lock();
        if guard.generation == generation {
            if let Some(i) = guard.pools.iter().position(|(n, _)| *n == threads) {
                let entry = guard.pools.remove(i);
                let pool = entry.1.clone();
                guard.pools.push(entry);
                return pool;
            }
        }
    }
    // Built without the lock: a fork meanwhile does not wait for it, and two callers
    // asking for the same new size at once may each build one (one is kept).
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool can be built"),
    );
    let mut guard = lock();
    if guard.generation == generation && GENERATION.load(Ordering::Acquire) == generation {
        guard.pools.retain(|(n, _)| *n != threads);
        if guard.pools.len() >= POOL_CACHE {
            guard.pools.remove(0);
        }
        guard.pools.push((threads, pool.clone()));
    }
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_checked() {
        assert_eq!(check_threads(1).unwrap(), 1);
        assert_eq!(check_threads(MAX_THREADS as i128).unwrap(), MAX_THREADS);
        for bad in [0, -1, MAX_THREADS as i128 + 1, 1 << 40] {
            let message = check_threads(bad).unwrap_err().to_string();
            assert!(message.contains("from 1 to 256"), "{message}");
        }
    }

    #[test]
    fn pools_are_bounded_and_reused() {
        for n in 1..=3 * POOL_CACHE {
            assert_eq!(with_threads(Some(n), rayon::current_num_threads), n);
        }
        let (count, _) = kept_pools();
        assert!(count <= POOL_CACHE);
        let a = pool(GENERATION.load(Ordering::Acquire), 2);
        let b = pool(GENERATION.load(Ordering::Acquire), 2);
        assert!(Arc::ptr_eq(&a, &b));
    }
}
