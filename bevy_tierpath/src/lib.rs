//! # bevy_tierpath
//!
//! A [Bevy](https://bevy.org) plugin for [tierpath]: units ask for paths with
//! a [`PathRequest`] component; a request queue answers them oldest first
//! within a per-frame budget of expanded nodes set on the
//! [`TierpathPlugin`]; answers arrive as a [`Path`] component (or a
//! [`PathFailed`] message when the goal is unreachable or the request is
//! bad). Map edits sent as [`EditMap`] messages repair the hierarchy in
//! place, and the paths the repair touches are requested again by themselves.
//!
//! A contracted hierarchy (`Hierarchy::contract`, a build with
//! `HierarchyBuilder::contract`, or a file saved contracted: its queries
//! several times faster) stays contracted across
//! edits: a repair that changes the cluster graph's arcs or costs ends the
//! contraction (one that does not keeps it), and the plugin contracts the
//! repaired map again on a worker thread (`Hierarchy::contraction_job`),
//! installing the result in the first frame after it is done unless another
//! edit changed the cluster graph in between (then it starts over).
//! Meanwhile queries run A*
//! over the repaired cluster graph. [`NavGrid::keep_contracted`] turns this
//! on or off.
//!
//! A request may be for a unit larger than one cell ([`PathRequest::size`],
//! a `k x k` square named by its top-left cell): build the hierarchy with
//! `HierarchyBuilder::max_unit_size` at least that large.
//!
//! Depends on `bevy_app` and `bevy_ecs` only (no renderer, no window), so it
//! runs headless and in tests.
//!
//! ```
//! use bevy_app::App;
//! use bevy_tierpath::{Path, PathRequest, NavGrid, TierpathPlugin};
//! use tierpath::{Grid, Hierarchy, Point};
//!
//! let grid = Grid::from_fn(64, 64, |p| !(p.x == 32 && p.y < 60)).unwrap();
//! let mut app = App::new();
//! app.add_plugins(TierpathPlugin { budget: 500 })
//!     .insert_resource(NavGrid::new(Hierarchy::build(grid).unwrap()));
//! let unit = app
//!     .world_mut()
//!     .spawn(PathRequest::new(Point::new(2, 2), Point::new(60, 2)))
//!     .id();
//! for _ in 0..10 {
//!     app.update(); // one frame
//! }
//! let path = app.world().get::<Path>(unit).expect("answered within ten frames");
//! assert_eq!(path.goal(), Some(Point::new(60, 2)));
//! ```
#![deny(missing_docs)]

use std::collections::HashMap;
use std::ops::Deref;
use std::thread::JoinHandle;

use bevy_app::{App, Plugin, Update};
use bevy_ecs::prelude::*;
use tierpath::{
    ContractionDone, ContractionError, ContractionKind, DynamicHierarchy, Edit, EditError,
    Hierarchy, PathQueue, Point, QueryError, QueryOptions, RequestId,
};

/// The plugin: registers the messages and the systems that serve requests.
/// Insert a [`NavGrid`] resource holding the map's hierarchy.
#[derive(Debug, Clone, Copy)]
pub struct TierpathPlugin {
    /// Nodes (grid cells and cluster-graph nodes) the request queue may
    /// expand per frame, over all requests. A few thousand answer a long
    /// path on a large map within a frame or two for well under a
    /// millisecond.
    pub budget: u64,
}

impl Default for TierpathPlugin {
    fn default() -> Self {
        TierpathPlugin { budget: 4096 }
    }
}

/// The per-frame budget in force (set from the plugin; change it at run
/// time).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathBudget(pub u64);

/// What the request queue did in the last frame.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathFrameStats {
    /// Nodes expanded in the last frame (at most the budget).
    pub expanded: u64,
    /// Requests answered in the last frame.
    pub completed: u32,
    /// Requests waiting or in progress.
    pub pending: usize,
    /// Requests answered since the start.
    pub answered_total: u64,
}

/// The system sets of the plugin, run in this order in `Update`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum TierpathSet {
    /// Applies [`EditMap`] messages and requests touched paths again.
    Edit,
    /// Queues new and changed [`PathRequest`]s.
    Request,
    /// Spends the frame's budget and delivers answers.
    Serve,
}

impl Plugin for TierpathPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(PathBudget(self.budget))
            .init_resource::<PathFrameStats>()
            .add_message::<EditMap>()
            .add_message::<MapRepaired>()
            .add_message::<PathFailed>()
            .configure_sets(
                Update,
                (TierpathSet::Edit, TierpathSet::Request, TierpathSet::Serve).chain(),
            )
            .add_systems(
                Update,
                (apply_edits, keep_contracted)
                    .chain()
                    .in_set(TierpathSet::Edit),
            )
            .add_systems(
                Update,
                (cancel_removed, submit_requests)
                    .chain()
                    .in_set(TierpathSet::Request),
            )
            .add_systems(Update, serve_requests.in_set(TierpathSet::Serve));
    }
}

/// A unit's request for a path from `start` to `goal`. Changing it asks
/// again (the old answer is removed); removing it cancels the request.
/// (Options added later go here.)
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathRequest {
    /// Where the unit is (its top-left cell).
    pub start: Point,
    /// Where it goes.
    pub goal: Point,
    /// The unit's size: a `size x size` square named by its top-left cell;
    /// 1 (one cell) by default. Above the hierarchy's
    /// [`Hierarchy::max_unit_size`] the request fails as invalid.
    pub size: u32,
}

impl PathRequest {
    /// A request from `start` to `goal` for a unit of one cell.
    pub fn new(start: Point, goal: Point) -> Self {
        PathRequest {
            start,
            goal,
            size: 1,
        }
    }

    /// The same request for a unit of `size x size` cells.
    pub fn with_size(self, size: u32) -> Self {
        PathRequest { size, ..self }
    }
}

/// The answer to an entity's [`PathRequest`]: every cell from start to goal
/// and the exact cost.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Path(pub tierpath::Path);

impl Deref for Path {
    type Target = tierpath::Path;
    fn deref(&self) -> &tierpath::Path {
        &self.0
    }
}

/// Why a request got no [`Path`].
#[derive(Debug, Clone, PartialEq)]
pub enum PathFailure {
    /// The goal cannot be reached from the start (another island, or the map
    /// changed so that an endpoint is now a wall).
    Unreachable,
    /// The request itself is bad: an endpoint off the map, on a wall or
    /// where the unit does not fit, or a size the hierarchy does not serve.
    Invalid(QueryError),
}

/// Sent when a request gets no path.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct PathFailed {
    /// The entity that asked.
    pub entity: Entity,
    /// Its request.
    pub request: PathRequest,
    /// Why.
    pub reason: PathFailure,
}

/// A batch of map edits (cells opened, closed or re-weighted), applied in
/// the next frame's [`TierpathSet::Edit`] step.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct EditMap(pub Vec<Edit>);

/// Sent after each [`EditMap`]: what the repair did, or why the batch was
/// refused (then nothing changed).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct MapRepaired {
    /// Cells changed and clusters repaired, or the refusal.
    pub result: Result<(usize, usize), EditError>,
    /// Answered paths the repair touched, requested again.
    pub requested_again: usize,
}

/// The map's hierarchy, repairable at run time, and the request queue that
/// serves it. Insert it as a resource.
#[derive(Resource, Debug)]
pub struct NavGrid {
    map: DynamicHierarchy,
    queue: PathQueue,
    /// Requests in the queue, by id and by entity.
    asked: HashMap<RequestId, (Entity, PathRequest)>,
    by_entity: HashMap<Entity, RequestId>,
    /// Whether to contract the map again after edits, and the job doing it.
    recontract: Recontract,
}

/// The background contraction of [`NavGrid::keep_contracted`].
#[derive(Debug)]
enum Recontract {
    /// Not kept contracted.
    Off,
    /// Kept contracted; no job running.
    Idle,
    /// A job contracting the map as it was when the job was taken.
    Running(JoinHandle<Result<ContractionDone, ContractionError>>),
    /// A job failed (the map's costs cannot be contracted): not tried again.
    Failed(String),
}

impl NavGrid {
    /// Serves paths on `h`.
    pub fn new(h: Hierarchy) -> NavGrid {
        let mut queue = PathQueue::new();
        // Size the queue's scratch now so no frame pays for it. The queue
        // is new and serves only this hierarchy: this cannot fail.
        let _ = queue.reserve(&h);
        let recontract = if h.is_contracted() {
            Recontract::Idle
        } else {
            Recontract::Off
        };
        NavGrid {
            map: DynamicHierarchy::new(h),
            queue,
            asked: HashMap::new(),
            by_entity: HashMap::new(),
            recontract,
        }
    }

    /// Whether the map is kept contracted across edits (on by default for a
    /// contracted hierarchy, off otherwise): when on, a map that is not
    /// contracted (never, or an edit ended it), or whose contraction edits
    /// patched (see `DynamicHierarchy::contract`), is contracted on a
    /// worker thread and the result installed in the first frame after it
    /// is done, if no edit changed the cluster graph in between.
    pub fn keep_contracted(mut self, on: bool) -> NavGrid {
        self.recontract = if on {
            Recontract::Idle
        } else {
            Recontract::Off
        };
        self
    }

    /// Why keeping the map contracted stopped, when a contraction failed.
    pub fn contraction_error(&self) -> Option<&str> {
        match &self.recontract {
            Recontract::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// Whether a contraction job is running.
    pub fn contracting(&self) -> bool {
        matches!(self.recontract, Recontract::Running(_))
    }

    /// Adds every cell's distance from `count` landmarks (1 to 4;
    /// `Hierarchy::add_cell_landmarks`): requests for units of one cell are
    /// then answered by exact jump point search at any distance, within its
    /// budget (on maps like Dragon Age's, long queries about twice as fast).
    /// Whether they were added (not on a map of terrain weights). A
    /// hierarchy loaded from a file saved with them has them already. Edits
    /// keep them (an opened cell lowers the distances its opening
    /// shortens); one that gives a cell a terrain weight drops them. One
    /// search over the map per landmark, plus one; requests in progress
    /// start again.
    pub fn add_cell_landmarks(&mut self, count: usize) -> bool {
        self.map.add_cell_landmarks(count)
    }

    /// The hierarchy as it stands (edits included).
    pub fn hierarchy(&self) -> &Hierarchy {
        self.map.hierarchy()
    }

    /// Requests waiting or in progress.
    pub fn pending(&self) -> usize {
        self.queue.pending()
    }

    /// Queues `request` for `entity`, replacing one it had in the queue. The
    /// one way requests enter the queue.
    fn submit(&mut self, entity: Entity, request: PathRequest) -> Result<(), QueryError> {
        self.cancel(entity);
        let options = QueryOptions::new().unit_size(request.size);
        let id =
            self.queue
                .push_with(self.map.hierarchy(), request.start, request.goal, &options)?;
        self.asked.insert(id, (entity, request));
        self.by_entity.insert(entity, id);
        Ok(())
    }

    fn cancel(&mut self, entity: Entity) {
        if let Some(id) = self.by_entity.remove(&entity) {
            self.queue.cancel(id);
            self.asked.remove(&id);
        }
    }
}

fn apply_edits(
    mut nav: ResMut<NavGrid>,
    mut edits: MessageReader<EditMap>,
    mut repaired: MessageWriter<MapRepaired>,
    mut failed: MessageWriter<PathFailed>,
    answered: Query<(Entity, &Path, &PathRequest)>,
    mut commands: Commands,
) {
    for EditMap(batch) in edits.read() {
        let report = match nav.map.apply(batch) {
            Ok(r) => r,
            Err(e) => {
                repaired.write(MapRepaired {
                    result: Err(e),
                    requested_again: 0,
                });
                continue;
            }
        };
        let mut again = 0;
        for (entity, path, request) in &answered {
            if report.touches(&path.cells) {
                commands.entity(entity).remove::<Path>();
                again += 1;
                if let Err(e) = nav.submit(entity, *request) {
                    failed.write(PathFailed {
                        entity,
                        request: *request,
                        reason: failure(e),
                    });
                }
            }
        }
        repaired.write(MapRepaired {
            result: Ok((report.changed_cells.len(), report.clusters.len())),
            requested_again: again,
        });
    }
}

/// Keeps the map contracted ([`NavGrid::keep_contracted`]): installs a
/// finished job's contraction (stale after an edit: started over), and
/// starts a job when none runs and the map is not contracted, or its
/// contraction was patched by edits (exact, but about half as fast as one
/// made afresh).
fn keep_contracted(mut nav: ResMut<NavGrid>) {
    let nav = &mut *nav;
    if matches!(&nav.recontract, Recontract::Running(job) if job.is_finished()) {
        let Recontract::Running(job) = std::mem::replace(&mut nav.recontract, Recontract::Idle)
        else {
            unreachable!("matched above");
        };
        match job.join() {
            Ok(Ok(done)) => {
                // False when an edit came while it ran: taken again below.
                nav.map.install_contraction(done);
            }
            Ok(Err(e)) => nav.recontract = Recontract::Failed(e.to_string()),
            Err(_) => nav.recontract = Recontract::Failed("the contraction panicked".into()),
        }
    }
    if matches!(nav.recontract, Recontract::Idle)
        && (!nav.map.is_contracted() || nav.map.is_contraction_patched())
    {
        let job = nav.map.contraction_job(ContractionKind::default());
        nav.recontract = Recontract::Running(std::thread::spawn(move || job.run()));
    }
}

/// An endpoint that became a wall (or too narrow for the unit) after an edit
/// makes a request unreachable, not invalid.
fn failure(e: QueryError) -> PathFailure {
    match e {
        QueryError::Blocked { .. } | QueryError::DoesNotFit { .. } => PathFailure::Unreachable,
        e => PathFailure::Invalid(e),
    }
}

fn cancel_removed(mut nav: ResMut<NavGrid>, mut removed: RemovedComponents<PathRequest>) {
    for entity in removed.read() {
        nav.cancel(entity);
    }
}

fn submit_requests(
    mut nav: ResMut<NavGrid>,
    changed: Query<(Entity, &PathRequest), Changed<PathRequest>>,
    mut failed: MessageWriter<PathFailed>,
    mut commands: Commands,
) {
    for (entity, request) in &changed {
        commands.entity(entity).remove::<Path>();
        if let Err(e) = nav.submit(entity, *request) {
            failed.write(PathFailed {
                entity,
                request: *request,
                reason: PathFailure::Invalid(e),
            });
        }
    }
}

fn serve_requests(
    mut nav: ResMut<NavGrid>,
    budget: Res<PathBudget>,
    mut stats: ResMut<PathFrameStats>,
    mut failed: MessageWriter<PathFailed>,
    mut commands: Commands,
) {
    let nav = &mut *nav;
    // The queue serves only this hierarchy, so update cannot refuse it.
    let frame = nav
        .queue
        .update(nav.map.hierarchy(), budget.0)
        .unwrap_or_default();
    while let Some((id, outcome)) = nav.queue.pop_finished() {
        let Some((entity, request)) = nav.asked.remove(&id) else {
            continue;
        };
        nav.by_entity.remove(&entity);
        match outcome.path {
            Some(path) => {
                if let Ok(mut e) = commands.get_entity(entity) {
                    e.try_insert(Path(path));
                }
            }
            None => {
                failed.write(PathFailed {
                    entity,
                    request,
                    reason: PathFailure::Unreachable,
                });
            }
        }
    }
    *stats = PathFrameStats {
        expanded: frame.expanded,
        completed: frame.completed,
        pending: nav.queue.pending(),
        answered_total: stats.answered_total + u64::from(frame.completed),
    };
}
