//! Long core work run from Python: on a worker thread, with progress reports and Ctrl-C.
use crate::checked;
use doubleholdem_core::{parallel, CoreError};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// Runs `work` on a worker thread (on `threads` threads) while this thread reports
/// `progress(done, total)` every 100 ms and watches for Ctrl-C, which sets the
/// cancellation flag and raises KeyboardInterrupt once the work stopped. The
/// worker's end wakes this thread at once, so short jobs pay no polling delay.
pub(crate) fn supervised<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    total: usize,
    threads: Option<usize>,
    work: impl FnOnce(&AtomicUsize, &AtomicBool) -> Result<T, CoreError> + Send,
) -> PyResult<T> {
    let (done, cancel) = (AtomicUsize::new(0), AtomicBool::new(false));
    let (sender, receiver) = mpsc::channel();
    // Behind a mutex so the detached closure may borrow it (a receiver is not Sync).
    let receiver = Mutex::new(receiver);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let result = parallel::with_threads(threads, || work(&done, &cancel));
            // The receiver lives until the scope ends; a failed send cannot happen.
            let _ = sender.send(result);
        });
        let mut failure: Option<PyErr> = None;
        let result = loop {
            let received = py.detach(|| {
                let receiver = receiver.lock().unwrap_or_else(|e| e.into_inner());
                receiver.recv_timeout(Duration::from_millis(100))
            });
            match received {
                Ok(result) => break Some(result),
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                Err(mpsc::RecvTimeoutError::Timeout) if failure.is_none() => {
                    let report = match progress {
                        Some(callback) => callback
                            .call1((done.load(Ordering::Relaxed), total))
                            .map(drop),
                        None => Ok(()),
                    };
                    if let Err(error) = report.and_then(|()| py.check_signals()) {
                        cancel.store(true, Ordering::Relaxed);
                        failure = Some(error);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        };
        if let (Some(callback), None, Some(Ok(_))) = (progress, &failure, &result) {
            callback.call1((total, total))?;
        }
        match (failure, result) {
            (Some(error), _) => Err(error),
            (None, None) => Err(PyRuntimeError::new_err("a worker thread panicked")),
            (None, Some(Err(CoreError::Interrupted))) => {
                Err(PyKeyboardInterrupt::new_err("interrupted"))
            }
            (None, Some(result)) => checked(py, result),
        }
    })
}
