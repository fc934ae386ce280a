//! Work started ahead of need on a thread of its own: host-compiler runs whose answer a later
//! step may want (`cc --version`, preprocessing the device library), started as soon as the
//! pipeline knows they are likely needed, so they run while ompcc's own stages do.
//!
//! Invariants: a job runs at most once; [`Ahead::take`] gives its result to the first caller,
//! running it on the caller's thread if it was never started (so starting ahead never
//! changes what a command does, only when); [`Ahead::settle`] waits for one nobody took
//! (before the temporary files it writes go away). A job must not record `--time-phases` phases
//! (their nesting is the main thread's); the wait in `take` is timed by its caller.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Job<T> = Box<dyn FnOnce() -> T + Send>;

enum State<T> {
    Waiting(Job<T>),
    /// (`None` from the thread: it found no job, which cannot happen once it started)
    Running(JoinHandle<Option<T>>),
    Taken,
}

/// A job that may run ahead.
pub struct Ahead<T: Send + 'static> {
    state: RefCell<State<T>>,
}

impl<T: Send + 'static> Ahead<T> {
    pub fn new(job: impl FnOnce() -> T + Send + 'static) -> Ahead<T> {
        Ahead {
            state: RefCell::new(State::Waiting(Box::new(job))),
        }
    }

    /// Starts the job on a thread of its own, unless it already started (if no thread can
    /// be had, it runs when taken).
    pub fn start(&self) {
        let mut state = self.state.borrow_mut();
        if !matches!(*state, State::Waiting(_)) {
            return;
        }
        let State::Waiting(job) = std::mem::replace(&mut *state, State::Taken) else {
            return;
        };
        // The job waits in a slot the thread takes it from, so that a failed spawn, which
        // drops the thread's closure, leaves it here to run on `take`.
        let slot = Arc::new(Mutex::new(Some(job)));
        let theirs = Arc::clone(&slot);
        let spawned = std::thread::Builder::new()
            .name("ompcc-ahead".into())
            .spawn(move || {
                let job = theirs.lock().unwrap_or_else(|e| e.into_inner()).take();
                job.map(|job| job())
            });
        *state = match spawned {
            Ok(handle) => State::Running(handle),
            Err(_) => match slot.lock().unwrap_or_else(|e| e.into_inner()).take() {
                Some(job) => State::Waiting(job),
                None => State::Taken,
            },
        };
    }

    /// Waits for the job if it runs ahead, dropping its result (a job that was never
    /// started does not run).
    pub fn settle(&self) {
        let mut state = self.state.borrow_mut();
        if matches!(*state, State::Running(_))
            && let State::Running(handle) = std::mem::replace(&mut *state, State::Taken)
        {
            let _ = handle.join();
        }
    }

    /// The job's result: waits for it if it runs ahead, runs it here if it never started;
    /// `None` once taken (or if its thread panicked).
    pub fn take(&self) -> Option<T> {
        let state = std::mem::replace(&mut *self.state.borrow_mut(), State::Taken);
        match state {
            State::Waiting(job) => Some(job()),
            State::Running(handle) => handle.join().ok().flatten(),
            State::Taken => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_runs_once_ahead_or_when_taken() {
        let ahead = Ahead::new(|| std::thread::current().name().map(str::to_owned));
        ahead.start();
        ahead.start();
        assert_eq!(ahead.take(), Some(Some("ompcc-ahead".to_owned())));
        assert_eq!(ahead.take(), None);
        let here = Ahead::new(|| 7);
        assert_eq!(here.take(), Some(7));
        here.start();
        assert_eq!(here.take(), None);
    }
}
