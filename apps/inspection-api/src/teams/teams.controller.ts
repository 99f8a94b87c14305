import { Controller, Get, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { type Principal } from '../auth/tokens.service';
import { InspectionApiEnvironment } from '../config/inspection-api.environment';
import { type FieldErrors } from '../drf/exceptions';
import { filterError, integerFilter } from '../drf/filters';
import { ApiPageQueries } from '../drf/page-queries.decorator';
import { pagedEnvelope, pageRequest, parseQuery, queryValue } from '../drf/pagination';
import { ResourceRoutes } from '../drf/resource-routes';
import { TEAM_INFO, TeamDto, TeamInputDto, TeamPageDto } from './dto/team.dto';
import { TeamsService } from './teams.service';

/** Teams: supervisors create, change and delete them; inspectors read them (the role guard's default). */
@ApiTags('teams')
@ApiBearerAuth()
@ApiForbiddenResponse({
  description: 'Writes are for supervisors: {"detail":"You do not have permission to perform this action."}',
})
@Controller('api/teams')
export class TeamsController extends ResourceRoutes({
  name: 'Team',
  info: TEAM_INFO,
  representation: TeamDto,
  input: TeamInputDto,
  createSummary: 'Create a team (supervisors)',
  removeSummary:
    'Delete a team (supervisors): its memberships go, and the actions assigned to it are left unassigned',
}) {
  constructor(
    private readonly teams: TeamsService,
    private readonly environment: InspectionApiEnvironment,
  ) {
    super(teams);
  }

  @Get()
  @ApiOperation({ summary: 'List teams (paged, ordered by id)' })
  @ApiPageQueries()
  @ApiQuery({
    name: 'member',
    required: false,
    description: "A user's id, or `me`: only the teams that user is a member of.",
  })
  @ApiOkResponse({ type: TeamPageDto })
  async list(@Req() request: Request): Promise<object> {
    const query = parseQuery(request);
    const wanted = pageRequest(query, {
      defaultSize: this.environment.INSPECTION_PAGE_SIZE,
      maxSize: this.environment.INSPECTION_MAX_PAGE_SIZE,
    });
    const errors: FieldErrors = {};
    const member = queryValue(query, 'member');
    const user = (request as Request & { user?: Principal }).user;
    const filters = {
      member: member === 'me' ? (user?.userId ?? 0) : integerFilter(member, 'member', errors),
    };
    filterError(errors);
    const { count, page, results } = await this.teams.page(filters, wanted);
    return pagedEnvelope(request, query, wanted, { count, page, results });
  }
}
