import { All, applyDecorators, Controller, Get, Param, Post, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { InspectorsMay } from '../auth/role-access';
import { type Principal } from '../auth/tokens.service';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { booleanFilter, choiceFilter, filterError, integerFilter, orderingFilter } from '../drf/filters';
import { pagedEnvelope, pageRequest, parseQuery, queryValue, requestOrigin } from '../drf/pagination';
import { Body, type RequestInput } from '../drf/request-input';
import { parseId, ResourceRoutes } from '../drf/resource-routes';
import { LIST_METHODS, otherMethod, postActions } from '../drf/routes';
import { mediaUrlBase } from '../media/media-url';
import { ACTION_PRIORITIES, ACTION_STATUSES } from './action-transitions';
import { ACTION_ORDERING_COLUMNS, type ActionFilters, ActionsService } from './actions.service';
import {
  ACTION_COMMENT_INFO,
  ACTION_INFO,
  ActionCommentDto,
  ActionCommentInputDto,
  ActionDto,
  ActionInputDto,
  ActionMultipartDto,
  ActionPageDto,
} from './dto/action.dto';
import { ApiPageQueries } from '../drf/page-queries.decorator';

/**
 * Corrective actions. Inspectors pass the role guard here on every method: what each may do to an action (the
 * assignee moves and closes it out, supervisors do the rest) is decided per action by `action-transitions.ts`.
 */
@ApiTags('actions')
@ApiBearerAuth()
@ApiForbiddenResponse({
  description:
    'Not the assignee nor a supervisor, a supervisor-only change (verify, cancel, edit), or a verified action: {"detail": …}',
})
@InspectorsMay('per-object')
@Controller('api/actions')
export class ActionsController extends ResourceRoutes({
  name: 'Action',
  info: ACTION_INFO,
  representation: ActionDto,
  input: ActionInputDto,
  createSummary: 'Open a corrective action (supervisors; from a record or not)',
  removeSummary: 'Actions are never deleted (405): cancel one instead',
  removable: false,
  uploads: {
    multipart: ActionMultipartDto,
    description:
      'JSON (close_out_photo is read-only there and ignored), or multipart/form-data with the fields as form fields and the close-out photo as a part named "close_out_photo". The status moves by the transition rules.',
    tooLarge: 'A close-out photo over INSPECTION_MAX_PHOTO_BYTES.',
  },
}) {
  constructor(
    private readonly actions: ActionsService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(actions);
  }

  @Get()
  @ApiOperation({ summary: 'List corrective actions (paged, newest first unless `ordering` says otherwise)' })
  @ApiPageQueries()
  @ActionFilterQueries()
  @ApiOkResponse({ type: ActionPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const { count, page, results } = await this.actions.page(
      mediaUrlBase(requestOrigin(request)),
      actionFilters(query, (request as Request & { user?: Principal }).user),
      wanted,
    );
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }

  /** Before the detail routes (a subclass's routes are registered first). */
  @Get(':id/comments')
  @ApiOperation({ summary: "An action's comments, oldest first (a bare array)" })
  @ApiOkResponse({ type: [ActionCommentDto] })
  comments(@Param('id') id: string): Promise<unknown> {
    return this.actions.comments(parseId(id));
  }

  @Post(':id/comments')
  @ApiOperation({ summary: 'Comment on an action (the assignee or a supervisor; not on a verified action)' })
  @ApiBody({ type: ActionCommentInputDto })
  @ApiCreatedResponse({ type: ActionCommentDto })
  addComment(@Param('id') id: string, @Req() request: Request, @Body() body: RequestInput): Promise<unknown> {
    return this.actions.addComment(
      parseId(id),
      () => body.read(),
      (request as Request & { user?: Principal }).user,
    );
  }

  @All(':id/comments')
  @ApiExcludeEndpoint()
  commentsOther(@Req() request: Request): Promise<object> {
    return otherMethod(request, LIST_METHODS, 'Action Comment List', postActions(ACTION_COMMENT_INFO));
  }
}

/** The actions list's filters (django-filter's messages); `assigned_to=me` is the signed-in user. */
function actionFilters(query: Map<string, string[]>, user: Principal | undefined): ActionFilters {
  const errors: FieldErrors = {};
  const assignedTo = queryValue(query, 'assigned_to');
  const filters: ActionFilters = {
    status: choiceFilter(queryValue(query, 'status'), 'status', ACTION_STATUSES, errors),
    assignee: integerFilter(queryValue(query, 'assignee'), 'assignee', errors),
    assigneeTeam: integerFilter(queryValue(query, 'assignee_team'), 'assignee_team', errors),
    assignedTo: assignedTo === 'me' ? (user?.userId ?? 0) : integerFilter(assignedTo, 'assigned_to', errors),
    overdue: booleanFilter(queryValue(query, 'overdue')),
    record: integerFilter(queryValue(query, 'record'), 'record', errors),
    device: integerFilter(queryValue(query, 'device'), 'device', errors),
    priority: choiceFilter(queryValue(query, 'priority'), 'priority', ACTION_PRIORITIES, errors),
    ordering: orderingFilter(queryValue(query, 'ordering'), Object.keys(ACTION_ORDERING_COLUMNS)),
  };
  filterError(errors);
  return filters;
}

function ActionFilterQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'status', required: false, enum: ACTION_STATUSES }),
    ApiQuery({ name: 'assignee', required: false, type: Number, description: "The assignee's user id." }),
    ApiQuery({
      name: 'assignee_team',
      required: false,
      type: Number,
      description: "The assignee team's id.",
    }),
    ApiQuery({
      name: 'assigned_to',
      required: false,
      description:
        'A user\'s id, or `me`: the actions assigned to that user or to a team they are a member of (a person\'s "my actions").',
    }),
    ApiQuery({
      name: 'overdue',
      required: false,
      type: Boolean,
      description:
        'true: open or in progress with a due date before today (INSPECTION_TIME_ZONE); false: the others.',
    }),
    ApiQuery({ name: 'record', required: false, type: Number }),
    ApiQuery({ name: 'device', required: false, type: Number }),
    ApiQuery({ name: 'priority', required: false, enum: ACTION_PRIORITIES }),
    ApiQuery({
      name: 'ordering',
      required: false,
      description: `Comma-separated fields, "-" for descending (DRF's OrderingFilter; unknown fields are ignored): ${Object.keys(ACTION_ORDERING_COLUMNS).join(', ')}. Default -id (newest first).`,
    }),
  );
}
